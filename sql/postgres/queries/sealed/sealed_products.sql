-- One game's sealed products, newest additions first, with the total for paging. $1 game slug,
-- $2 set id or NULL, $3 limit, $4 offset, $5 one product id or NULL.
SELECT p.id, p.name, p.category, p.set_id, p.set_code, p.added_at::text AS added_at,
       p.eu_marketplace_product_id, count(*) OVER ()::int AS total
FROM sealed_products p JOIN games g ON g.id = p.game_id
WHERE g.slug = $1 AND ($2::int IS NULL OR p.set_id = $2) AND ($5::int IS NULL OR p.id = $5)
ORDER BY p.added_at DESC NULLS LAST, p.id DESC
LIMIT $3 OFFSET $4

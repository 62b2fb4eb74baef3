-- A game's European-marketplace products with their finishes.
SELECT r.ref_value, c.rarity, array_agg(DISTINCT v.finish) AS finishes
FROM cross_refs r JOIN cards c ON c.id = r.card_id JOIN games g ON g.id = c.game_id
JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
WHERE g.slug = $1 AND r.ref_key = 'eu_marketplace_product_id'
GROUP BY r.ref_value, c.rarity
ORDER BY r.ref_value::bigint

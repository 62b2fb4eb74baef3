-- A game's US-marketplace products (printing-level references) with each variant's finish and print run.
SELECT r.ref_value, c.rarity, v.finish, p.print_run
FROM cross_refs r JOIN cards c ON c.id = r.card_id JOIN games g ON g.id = c.game_id
JOIN printings p ON p.id = r.printing_id JOIN variants v ON v.printing_id = p.id
WHERE g.slug = $1 AND r.ref_key = 'us_marketplace_product_id'
ORDER BY r.ref_value::bigint, v.id

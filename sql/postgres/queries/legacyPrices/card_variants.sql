-- A card and its variants in display order, with the variant its reference price is for.
SELECT c.id AS card_id, c.name, c.rarity, g.slug AS game, v.id AS variant_id, v.finish, p.print_run, p.language,
       b.variant_id AS reference_variant_id
FROM cards c
JOIN games g ON g.id = c.game_id
LEFT JOIN printings p ON p.card_id = c.id
LEFT JOIN variants v ON v.printing_id = p.id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE c.id = $1
ORDER BY (p.print_run <> 'unlimited'), (v.finish = 'reverse-holofoil'), v.id

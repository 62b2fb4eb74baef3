-- pokemontcg.io compatibility: the latest raw TCGplayer and Cardmarket prices of cards' variants.
SELECT p.card_id, v.finish, p.print_run, l.source, l.price_type, l.amount::float8 AS amount, l.as_of::text AS as_of
FROM printings p
JOIN variants v ON v.printing_id = p.id
JOIN variant_prices_latest l ON l.variant_id = v.id
WHERE p.card_id = ANY ($1::int[]) AND l.source IN ('tcgplayer', 'cardmarket') AND l.grading_company = 'raw'
ORDER BY p.card_id, p.id, v.id

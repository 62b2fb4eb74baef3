-- A card's latest ungraded price of every variant, source and price type (the materialised latest
-- prices: no ClickHouse read), filtered by source ($2) and foil status ($3: nonfoil = normal or
-- holofoil, foil = any other foil finish, etched); with the filter's total. No row: no such prices.
SELECT v.id AS variant_id, v.finish, p.print_run, p.language, l.source, l.region, l.price_type, l.currency,
       l.amount::float8 AS amount, l.as_of::text AS as_of, count(*) OVER ()::int AS total
FROM printings p
JOIN variants v ON v.printing_id = p.id
JOIN variant_prices_latest l ON l.variant_id = v.id
WHERE p.card_id = $1
  AND l.grading_company = 'raw'
  AND ($2::text IS NULL OR l.source = $2)
  AND ($3::text IS NULL OR CASE $3::text WHEN 'nonfoil' THEN v.finish IN ('normal', 'holofoil')
                                         WHEN 'etched' THEN v.finish = 'etched'
                                         ELSE v.finish NOT IN ('normal', 'holofoil', 'etched') END)
ORDER BY l.source, v.id, l.region, l.price_type
LIMIT $4 OFFSET $5

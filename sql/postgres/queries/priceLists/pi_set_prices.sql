-- A set's cards with each variant's latest ungraded market price per source (market, trend, raw_us
-- or raw_jp: what each kind of source reports as its market value), filtered by source ($2) and
-- finish ($3); with the filter's total.
SELECT c.id AS card_id, c.name, c.collector_number AS number, v.id AS variant_id, v.finish, p.print_run,
       l.source, l.region, l.currency, l.amount::float8 AS amount, l.as_of::text AS as_of, count(*) OVER ()::int AS total
FROM cards c
JOIN printings p ON p.card_id = c.id
JOIN variants v ON v.printing_id = p.id
JOIN variant_prices_latest l ON l.variant_id = v.id
WHERE c.set_id = $1
  AND l.grading_company = 'raw'
  AND l.price_type IN ('market', 'trend', 'raw_us', 'raw_jp')
  AND ($2::text IS NULL OR l.source = $2)
  AND ($3::text IS NULL OR v.finish = $3)
ORDER BY c.id, v.id, l.source
LIMIT $4 OFFSET $5

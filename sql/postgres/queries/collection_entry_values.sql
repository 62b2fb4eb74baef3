-- Collection entries as their owner reads them, with values in USD from variant_prices_latest:
-- the lowest US market price of the variant's newest day, ungraded × the condition's factor ($2,
-- a jsonb map), graded: that company's and grade's newest lowest US price, else the ungraded
-- near-mint one. $1: the entry ids (one page, one export or one summary).
SELECT e.id, e.card_id, e.variant_id, c.name AS card_name, g.slug AS tcg_slug, s.name AS set_name, e.quantity, e.condition,
       v.finish, pr.print_run,
       e.price_paid::float8 AS price_paid, e.graded, e.grading_company, e.grade::float8 AS grade,
       round(coalesce(graded.amount, raw.amount * CASE WHEN e.graded THEN 1 ELSE ($2::jsonb ->> e.condition)::numeric END), 2)::float8 AS unit_value,
       raw.amount::float8 AS raw_price,
       to_char(e.added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS added_at
FROM collection_entries e
JOIN cards c ON c.id = e.card_id
JOIN games g ON g.id = c.game_id
JOIN sets s ON s.id = c.set_id
JOIN variants v ON v.id = e.variant_id
JOIN printings pr ON pr.id = v.printing_id
LEFT JOIN LATERAL (
  SELECT l.amount FROM variant_prices_latest l
  WHERE l.variant_id = e.variant_id AND l.region = 'us' AND l.price_type = 'market' AND l.grading_company = 'raw' AND l.currency = 'USD'
  ORDER BY l.as_of DESC, l.amount
  LIMIT 1
) raw ON true
LEFT JOIN LATERAL (
  SELECT l.amount FROM variant_prices_latest l
  WHERE e.graded AND l.variant_id = e.variant_id AND l.region = 'us' AND l.currency = 'USD'
    AND l.grading_company = lower(e.grading_company) AND l.grade = trim_scale(e.grade)::text
  ORDER BY l.as_of DESC, l.amount
  LIMIT 1
) graded ON true
WHERE e.id = ANY ($1::int[])
ORDER BY e.id DESC

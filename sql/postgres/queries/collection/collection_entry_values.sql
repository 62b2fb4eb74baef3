-- Collection entries as their owner reads them, with values in USD from variant_prices_latest
-- (collection_raw_prices, collection_graded_prices, collection_unit_value; $2: the condition
-- factors, a jsonb map). $1: the entry ids (one page, one export). Prices are looked up once per
-- variant, not once per entry.
WITH entries AS (
  SELECT * FROM collection_entries WHERE id = ANY ($1::int[])
),
raw AS (
  SELECT * FROM collection_raw_prices(ARRAY(SELECT DISTINCT variant_id FROM entries))
),
graded AS (
  SELECT * FROM collection_graded_prices(ARRAY(SELECT DISTINCT variant_id FROM entries WHERE graded))
)
SELECT e.id, e.card_id, e.variant_id, c.name AS card_name, g.slug AS tcg_slug, s.name AS set_name, e.quantity, e.condition,
       v.finish, pr.print_run,
       e.price_paid, e.graded, e.grading_company, e.grade::float8 AS grade,
       collection_unit_value(raw.amount, gp.amount, e.graded, e.condition, $2::jsonb)::float8 AS unit_value,
       raw.amount::float8 AS raw_price,
       to_char(e.added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS added_at
FROM entries e
JOIN cards c ON c.id = e.card_id
JOIN games g ON g.id = c.game_id
JOIN sets s ON s.id = c.set_id
JOIN variants v ON v.id = e.variant_id
JOIN printings pr ON pr.id = v.printing_id
LEFT JOIN raw ON raw.variant_id = e.variant_id
LEFT JOIN graded gp
  ON e.graded AND gp.variant_id = e.variant_id AND gp.grading_company = lower(e.grading_company) AND gp.grade = trim_scale(e.grade)::text
ORDER BY e.id DESC

-- Collection entries as their owner reads them, with values in USD from variant_prices_latest:
-- the lowest US market price of the variant's newest day, ungraded × the condition's factor ($2,
-- a jsonb map), graded: that company's and grade's newest lowest US price, else the ungraded
-- near-mint one (as collection_summary_by_variant sums them). $1: the entry ids (one page, one
-- export). Prices are looked up once per variant, not once per entry.
WITH entries AS (
  SELECT * FROM collection_entries WHERE id = ANY ($1::int[])
),
raw AS (
  SELECT DISTINCT ON (l.variant_id) l.variant_id, l.amount
  FROM variant_prices_latest l
  WHERE l.variant_id IN (SELECT variant_id FROM entries)
    AND l.region = 'us' AND l.price_type = 'market' AND l.grading_company = 'raw' AND l.currency = 'USD'
  ORDER BY l.variant_id, l.as_of DESC, l.amount
),
graded AS (
  SELECT DISTINCT ON (l.variant_id, l.grading_company, l.grade) l.variant_id, l.grading_company, l.grade, l.amount
  FROM variant_prices_latest l
  WHERE l.variant_id IN (SELECT variant_id FROM entries WHERE graded)
    AND l.region = 'us' AND l.currency = 'USD' AND l.grading_company <> 'raw'
  ORDER BY l.variant_id, l.grading_company, l.grade, l.as_of DESC, l.amount
)
SELECT e.id, e.card_id, e.variant_id, c.name AS card_name, g.slug AS tcg_slug, s.name AS set_name, e.quantity, e.condition,
       v.finish, pr.print_run,
       e.price_paid::float8 AS price_paid, e.graded, e.grading_company, e.grade::float8 AS grade,
       round(coalesce(gp.amount, raw.amount * CASE WHEN e.graded THEN 1 ELSE ($2::jsonb ->> e.condition)::numeric END), 2)::float8 AS unit_value,
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

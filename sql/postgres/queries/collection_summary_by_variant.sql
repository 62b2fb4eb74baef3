-- A user's collection summed per variant, for its summary: the cards held, their value from the
-- latest prices (valued as collection_entry_values values each entry: ungraded × the condition's
-- factor from $2, graded at that company's and grade's price, else the ungraded near-mint one),
-- and the ungraded cards' weight on the variant's market price (Σ quantity × factor) with that
-- price, which the 24 h and 7 d changes multiply. One row per variant, not per entry.
WITH entries AS (
  SELECT variant_id, card_id, quantity, condition, graded, grading_company, grade
  FROM collection_entries WHERE user_id = $1
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
SELECT en.variant_id, en.card_id, c.name AS card_name, g.slug AS tcg_slug,
       sum(en.quantity)::int AS cards,
       coalesce(sum(en.quantity * round(coalesce(gp.amount, raw.amount * CASE WHEN en.graded THEN 1 ELSE ($2::jsonb ->> en.condition)::numeric END), 2)), 0)::float8 AS value,
       coalesce(sum(en.quantity * ($2::jsonb ->> en.condition)::numeric) FILTER (WHERE NOT en.graded), 0)::float8 AS ungraded_weight,
       raw.amount::float8 AS raw_price
FROM entries en
JOIN cards c ON c.id = en.card_id
JOIN games g ON g.id = c.game_id
LEFT JOIN raw ON raw.variant_id = en.variant_id
LEFT JOIN graded gp
  ON en.graded AND gp.variant_id = en.variant_id AND gp.grading_company = lower(en.grading_company) AND gp.grade = trim_scale(en.grade)::text
GROUP BY en.variant_id, en.card_id, c.name, g.slug, raw.amount

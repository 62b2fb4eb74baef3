-- A user's graded entries with what each is worth (collection_unit_value: that company's and
-- grade's price, else the ungraded near-mint one; $2: the condition factors), NULL without a price.
WITH entries AS (
  SELECT variant_id, card_id, quantity, condition, grading_company, grade
  FROM collection_entries WHERE user_id = $1 AND graded
)
SELECT en.variant_id, en.card_id, c.set_id, c.game_id, en.quantity,
       (en.quantity * collection_unit_value(raw.amount, gp.amount, true, en.condition, $2::jsonb))::float8 AS value
FROM entries en
JOIN cards c ON c.id = en.card_id
LEFT JOIN collection_raw_prices(ARRAY(SELECT DISTINCT variant_id FROM entries)) raw ON raw.variant_id = en.variant_id
LEFT JOIN collection_graded_prices(ARRAY(SELECT DISTINCT variant_id FROM entries)) gp
  ON gp.variant_id = en.variant_id AND gp.grading_company = lower(en.grading_company) AND gp.grade = trim_scale(en.grade)::text

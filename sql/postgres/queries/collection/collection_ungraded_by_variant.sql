-- A user's ungraded cards, a row per variant whatever the conditions (a collection holds a variant
-- in several): how many in each condition, the variant's ungraded market price and what one card
-- in each condition is worth (collection_unit_value; $2: the condition factors), NULL without a
-- price. Grouped here on the variant id alone, so that 10,000 entries reach the summary, the
-- analytics and the public profile as a few thousand rows of numbers.
WITH held AS (
  SELECT variant_id, min(card_id) AS card_id,
         coalesce(sum(quantity) FILTER (WHERE condition = 'NM'), 0)::int AS nm,
         coalesce(sum(quantity) FILTER (WHERE condition = 'LP'), 0)::int AS lp,
         coalesce(sum(quantity) FILTER (WHERE condition = 'MP'), 0)::int AS mp,
         coalesce(sum(quantity) FILTER (WHERE condition = 'HP'), 0)::int AS hp,
         coalesce(sum(quantity) FILTER (WHERE condition = 'DMG'), 0)::int AS dmg
  FROM collection_entries
  WHERE user_id = $1 AND NOT graded
  GROUP BY variant_id
)
SELECT h.variant_id, h.card_id, c.set_id, c.game_id, raw.amount::float8 AS raw_price,
       h.nm, h.lp, h.mp, h.hp, h.dmg,
       collection_unit_value(raw.amount, NULL, false, 'NM', $2::jsonb)::float8 AS nm_unit,
       collection_unit_value(raw.amount, NULL, false, 'LP', $2::jsonb)::float8 AS lp_unit,
       collection_unit_value(raw.amount, NULL, false, 'MP', $2::jsonb)::float8 AS mp_unit,
       collection_unit_value(raw.amount, NULL, false, 'HP', $2::jsonb)::float8 AS hp_unit,
       collection_unit_value(raw.amount, NULL, false, 'DMG', $2::jsonb)::float8 AS dmg_unit
FROM held h
JOIN cards c ON c.id = h.card_id
LEFT JOIN collection_raw_prices(ARRAY(SELECT variant_id FROM held)) raw ON raw.variant_id = h.variant_id

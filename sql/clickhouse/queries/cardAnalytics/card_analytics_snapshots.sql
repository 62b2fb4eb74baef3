-- legacy_price_snapshots.sql for each variant of a batch of cards (holo.card_analytics_batch) and
-- every source since {since}: one line per card for PostgreSQL's COPY, its answers as JSON text
-- {"<variant>": [[source, grading company, grade, region, currency, first day, [days after the
-- previous day], [market_price, …]], …]}: one run a series, in that order (sql/cardAnalytics.ts
-- decodes them; the per-card query orders a day's rows by company, grade and region). A day's row
-- does not depend on the window's start, so a shorter window's answer is these rows from its start on.
WITH runs AS (
  SELECT card_id, variant_id, toString(source) AS source, toString(grading_company) AS grading_company, toString(grade) AS grade,
         toString(region) AS region, toString(currency) AS currency, arraySort(groupArray((day, round(price, 4)))) AS points
  FROM holo.card_analytics_batch
  WHERE day >= {since:Date}
  GROUP BY card_id, variant_id, source, grading_company, grade, region, currency
),
variants AS (
  SELECT card_id, variant_id,
         arraySort(groupArray((source, grading_company, grade, region, currency, toString(points[1].1),
                               arrayDifference(arrayMap(p -> toUInt16(p.1), points)), arrayMap(p -> p.2, points)))) AS runs
  FROM runs
  GROUP BY card_id, variant_id
)
SELECT card_id, 'legacy_price_snapshots' AS query, {generation:UInt64} AS generation,
       toJSONString(mapFromArrays(groupArray(toString(variant_id)), groupArray(runs))) AS answers
FROM variants
GROUP BY card_id

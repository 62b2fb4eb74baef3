-- legacy_source_medians.sql for every single-variant scope (card, variant, grading company, grade)
-- of a batch of cards (holo.card_analytics_batch, filled by analytics/batch_fill.sql): per scope
-- and source, the median USD market price over the last {days} days before the scope's newest day
-- since {since}, the daily values it rests on and the source's region.
SELECT card_id, variant_id, grading_company, grade, source,
       min(region) AS region, quantileExactInclusive(0.5)(price_usd) AS median, count() AS sample_size
FROM (
  SELECT card_id, variant_id, grading_company, grade, day, source, region, price_usd,
         max(day) OVER (PARTITION BY card_id, variant_id, grading_company, grade) AS last_day
  FROM holo.card_analytics_batch
  WHERE day >= {since:Date}
)
WHERE day > last_day - {days:UInt32}
GROUP BY card_id, variant_id, grading_company, grade, source
ORDER BY card_id, variant_id, grading_company, grade, source

-- legacy_sales_counts.sql for every variant of many cards at once: auction sales in the last 30 and
-- 365 days per variant and grading company and grade, and per variant over every grade (the row
-- whose grading company and grade are '', what the per-card query counts with both left empty).
SELECT card_id, variant_id, grading_company, grade, countIf(as_of >= {since30:Date}) AS sales_30d, count() AS sales_365d
FROM holo.price_points FINAL
-- Sorting-key conditions before FINAL (every version of a row shares them); is_outlier after it.
PREWHERE card_id IN {card_ids:Array(UInt32)} AND source = 'auction_sold' AND as_of >= {since365:Date}
WHERE NOT is_outlier
GROUP BY GROUPING SETS ((card_id, variant_id, grading_company, grade), (card_id, variant_id))

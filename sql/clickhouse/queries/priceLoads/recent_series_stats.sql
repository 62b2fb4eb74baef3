-- Median and median absolute deviation of each series of the given cards and sources over the
-- days before {as_of}, non-outliers only: the baseline that new observations are judged against.
-- Series with fewer than {min_history} points have no baseline and are left out. The series key
-- comes back as one string (variant|region|source|price_type|grading_company|grade) so a batch of
-- a whole game's prices reads back as compact text.
-- No FINAL: a re-fetched observation counted twice barely moves a median, and skipping the merge
-- on read keeps this query proportional to the window, not to the table.
SELECT concat(toString(variant_id), '|', region, '|', source, '|', price_type, '|', grading_company, '|', grade) AS series,
       arrayReduce('median', amounts) AS med,
       arrayReduce('median', arrayMap(x -> abs(x - med), amounts)) AS mad
FROM
(
  SELECT variant_id, region, source, price_type, grading_company, grade, groupArray(toFloat64(amount)) AS amounts
  FROM holo.price_points
  WHERE card_id IN {card_ids:Array(UInt32)}
    AND source IN {sources:Array(String)}
    AND as_of < {as_of:Date} AND as_of >= {as_of:Date} - {window_days:UInt32}
    AND NOT is_outlier
  GROUP BY variant_id, region, source, price_type, grading_company, grade
  HAVING length(amounts) >= {min_history:UInt32}
)

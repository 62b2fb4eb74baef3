-- Median and median absolute deviation of each series of the given cards over the days before
-- {as_of}, non-outliers only: the baseline that new observations are judged against.
SELECT variant_id, region, source, price_type, grading_company, grade,
       count() AS n,
       toFloat64(median(amount)) AS med,
       toFloat64(median(abs(toFloat64(amount) - med_all))) AS mad
FROM
(
  SELECT variant_id, region, source, price_type, grading_company, grade, amount,
         median(toFloat64(amount)) OVER (PARTITION BY variant_id, region, source, price_type, grading_company, grade) AS med_all
  FROM holo.price_points FINAL
  WHERE card_id IN {card_ids:Array(UInt32)}
    AND as_of < {as_of:Date} AND as_of >= {as_of:Date} - {window_days:UInt32}
    AND NOT is_outlier
)
GROUP BY variant_id, region, source, price_type, grading_company, grade

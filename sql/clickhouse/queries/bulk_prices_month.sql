-- One game's daily price series for one month, as the bulk export writes it: per series and day the
-- exact median, range and count of the non-outlier observations (holo.price_daily's columns).
SELECT as_of AS day, card_id, variant_id, region, source, price_type, grading_company, grade, any(currency) AS currency,
       medianExact(amount) AS median_amount, min(amount) AS min_amount, max(amount) AS max_amount, count() AS observations
FROM holo.price_points FINAL
WHERE game = {game:String} AND as_of >= {month:Date} AND as_of < addMonths({month:Date}, 1) AND NOT is_outlier
GROUP BY day, card_id, variant_id, region, source, price_type, grading_company, grade
ORDER BY card_id, variant_id, region, source, price_type, grading_company, grade, day

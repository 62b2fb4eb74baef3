-- How many auction sales of the given variants ended in the last 30 and 365 days.
SELECT countIf(as_of >= {since30:Date}) AS sales_30d, count() AS sales_365d
FROM holo.price_points FINAL
WHERE card_id = {card_id:UInt32} AND variant_id IN {variant_ids:Array(UInt32)}
  AND source = 'auction_sold' AND as_of >= {since365:Date} AND NOT is_outlier
  AND (empty({grading_company:String}) OR grading_company = {grading_company:String})
  AND (empty({grade:String}) OR grade = {grade:String})

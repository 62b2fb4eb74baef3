-- Completed auction sales of a card's variants since {since}, one row per sale, in USD. Empty
-- company or grade: every one. Graded sales carry their company and grade; raw sales 'raw', ''.
SELECT toString(p.as_of) AS date, p.variant_id AS variant_id, p.grading_company AS grading_company, p.grade AS grade,
       p.observation_id AS observation_id, p.currency AS currency, toFloat64(p.amount) AS price,
       round(if(p.currency = 'USD', toFloat64(p.amount), toFloat64(p.amount) * fx.usd_per_unit), 4) AS price_usd
FROM holo.price_points AS p FINAL
ASOF LEFT JOIN holo.fx_to_usd AS fx ON p.currency = fx.currency AND p.as_of >= fx.day
WHERE p.card_id = {card_id:UInt32} AND p.variant_id IN {variant_ids:Array(UInt32)}
  AND p.source = 'auction_sold' AND p.as_of >= {since:Date} AND NOT p.is_outlier
  AND (empty({grading_company:String}) OR p.grading_company = {grading_company:String})
  AND (empty({grade:String}) OR p.grade = {grade:String})
  AND (p.currency = 'USD' OR fx.usd_per_unit > 0)
ORDER BY p.as_of DESC, p.observation_id
LIMIT {limit:UInt32}

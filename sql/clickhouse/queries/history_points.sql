-- Daily history of one variant's raw series in one region (several rows a day, one per series),
-- daily-median bucketed. Region 'global' takes every region's raw series converted to USD with
-- the euro reference rate of that day (or the last published before it).
SELECT
  toString(p.day) AS date,
  toString(round(
    if({region:String} = 'global' AND p.currency != 'USD',
       toFloat64(p.amount) * usd.rate / if(p.currency = 'EUR', 1, cur.rate),
       toFloat64(p.amount)),
    4)) AS amount,
  p.source AS source,
  p.price_type AS price_type
FROM
(
  SELECT day, source, price_type, currency, 'USD' AS usd_currency, median_amount AS amount
  FROM holo.price_daily
  WHERE card_id = {card_id:UInt32}
    AND variant_id = {variant_id:UInt32}
    AND grading_company = 'raw'
    AND ({region:String} = 'global' OR region = {region:String})
    AND day >= {since:Date}
) AS p
ASOF LEFT JOIN (SELECT currency, day, toFloat64(rate) AS rate FROM holo.fx_rates FINAL WHERE currency = 'USD') AS usd
  ON p.usd_currency = usd.currency AND p.day >= usd.day
ASOF LEFT JOIN (SELECT currency, day, toFloat64(rate) AS rate FROM holo.fx_rates FINAL) AS cur ON p.currency = cur.currency AND p.day >= cur.day
WHERE {region:String} != 'global' OR p.currency = 'USD' OR (usd.rate > 0 AND (p.currency = 'EUR' OR cur.rate > 0))
ORDER BY p.day, p.source, p.price_type

-- Parameterised view: completed auction sales of one card's variants since a day, one row per
-- sale, in the sale's currency and in US dollars; outliers and sales without a usable exchange
-- rate left out. Empty grading_company or grade: every one. Read by the legacy eBay-sold and
-- auction-sales endpoints. Use: SELECT … FROM holo.card_auction_sales_usd(card_id = 1,
-- variant_ids = [1, 2], since = '2026-01-01', grading_company = '', grade = '').
CREATE VIEW IF NOT EXISTS holo.card_auction_sales_usd {{ON_CLUSTER}} AS
SELECT p.as_of AS day, p.variant_id AS variant_id, p.grading_company AS grading_company, p.grade AS grade,
       p.observation_id AS observation_id, p.currency AS currency, toFloat64(p.amount) AS price,
       if(p.currency = 'USD', toFloat64(p.amount), toFloat64(p.amount) * fx.usd_per_unit) AS price_usd
FROM holo.price_points AS p FINAL
ASOF LEFT JOIN holo.fx_to_usd AS fx ON p.currency = fx.currency AND p.as_of >= fx.day
WHERE p.card_id = {card_id:UInt32} AND p.variant_id IN {variant_ids:Array(UInt32)}
  AND p.source = 'auction_sold' AND p.as_of >= {since:Date} AND NOT p.is_outlier
  AND (empty({grading_company:String}) OR p.grading_company = {grading_company:String})
  AND (empty({grade:String}) OR p.grade = {grade:String})
  AND (p.currency = 'USD' OR fx.usd_per_unit > 0);

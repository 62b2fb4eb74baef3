-- Completed auction sales of a card's variants since {since}, one row per sale, in USD. Empty
-- company or grade: every one. Graded sales carry their company and grade; raw sales 'raw', ''.
SELECT toString(day) AS date, variant_id, grading_company, grade, observation_id, currency, price, round(price_usd, 4) AS price_usd
FROM holo.card_auction_sales_usd(card_id = {card_id:UInt32}, variant_ids = {variant_ids:Array(UInt32)}, since = {since:Date},
                                 grading_company = {grading_company:String}, grade = {grade:String})
ORDER BY day DESC, observation_id
LIMIT {limit:UInt32}

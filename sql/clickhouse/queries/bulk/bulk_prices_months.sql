-- One game's price history for some months, as the bulk export writes it (one file a month, in one
-- pass over the facts): every non-outlier observation once (FINAL: the newest version), in the
-- table's own order. Daily guide values are one row a series and day; auction sales one a sale.
SELECT as_of AS day, card_id, variant_id, region, source, price_type, grading_company, grade, currency, amount, observation_id
FROM holo.price_points FINAL
WHERE game = {game:String} AND toStartOfMonth(as_of) IN {months:Array(Date)} AND NOT is_outlier
ORDER BY card_id, variant_id, region, source, price_type, grading_company, grade, as_of, observation_id

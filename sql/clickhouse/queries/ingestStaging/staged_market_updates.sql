-- The market price per card a stage loaded (its first non-outlier market row in feed order), for
-- the price_updates announcements, in the order the cards first appear.
SELECT card_id, toFloat64(argMin(amount, seq)) AS market_price, argMin(currency, seq) AS currency
FROM holo.ingest_mapped_rows
WHERE stage_id = {stage:String} AND refused = '' AND price_type = 'market' AND NOT is_outlier
  AND (variant_id, source) NOT IN (SELECT variant_id, source FROM holo.ingest_cross_source WHERE stage_id = {stage:String})
GROUP BY card_id
ORDER BY min(seq)

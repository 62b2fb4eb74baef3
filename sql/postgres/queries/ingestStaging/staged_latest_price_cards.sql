-- The cards of a batch's staged newest prices: whose card_best_prices the batch may move.
SELECT array_agg(DISTINCT card_id) AS card_ids FROM staged_latest_prices

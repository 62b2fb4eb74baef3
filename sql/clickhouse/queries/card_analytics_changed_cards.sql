-- The cards with price rows loaded at or after {since} (all cards from the epoch start), and
-- whether exchange rates were loaded since: then every card's USD figures moved.
SELECT groupUniqArray(card_id) AS card_ids,
       (SELECT count() FROM holo.fx_rates WHERE ingested_at >= {since:DateTime64(3, 'UTC')}) > 0 AS rates_changed
FROM holo.price_points
WHERE ingested_at >= {since:DateTime64(3, 'UTC')}

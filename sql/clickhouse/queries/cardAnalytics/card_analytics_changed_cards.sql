-- The cards whose answers a load since {since} moved: those with price rows loaded since, and
-- those priced in a currency whose exchange rates were loaded since, on or after the earliest
-- such rate's day (a price converts at its day's rate or the last one before). Every currency
-- converts through the USD rate per euro, so a moved USD rate moves every currency but USD.
WITH (SELECT groupUniqArray(toString(currency)) FROM holo.fx_rates WHERE ingested_at >= {since:DateTime64(3, 'UTC')}) AS rates_moved,
     (SELECT min(day) FROM holo.fx_rates WHERE ingested_at >= {since:DateTime64(3, 'UTC')}) AS rates_from
SELECT groupUniqArray(card_id) AS card_ids, notEmpty(rates_moved) AS rates_changed
FROM holo.price_points
WHERE ingested_at >= {since:DateTime64(3, 'UTC')}
   OR (notEmpty(rates_moved) AND currency != 'USD' AND as_of >= rates_from AND (has(rates_moved, 'USD') OR has(rates_moved, toString(currency))))

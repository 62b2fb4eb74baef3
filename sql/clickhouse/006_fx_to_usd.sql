-- US dollars per unit of each currency on each day the ECB published, from the euro reference
-- rates (units per EUR): the one conversion every USD figure in the API uses. Queries join it
-- ASOF (the day's rate, or the last one published before it, covering weekends and holidays).
CREATE VIEW IF NOT EXISTS holo.fx_to_usd {{ON_CLUSTER}} AS
SELECT r.currency AS currency, r.day AS day, usd.rate / r.rate AS usd_per_unit
FROM (SELECT currency, day, toFloat64(argMax(rate, ingested_at)) AS rate FROM holo.fx_rates GROUP BY currency, day) AS r
INNER JOIN (SELECT day, toFloat64(argMax(rate, ingested_at)) AS rate FROM holo.fx_rates WHERE currency = 'USD' GROUP BY day) AS usd ON usd.day = r.day
UNION ALL
-- (The inner query keeps the 'EUR' alias away from the WHERE: ClickHouse aliases shadow columns.)
SELECT 'EUR' AS currency, day, rate AS usd_per_unit
FROM (SELECT day, toFloat64(argMax(rate, ingested_at)) AS rate FROM holo.fx_rates WHERE currency = 'USD' GROUP BY day);

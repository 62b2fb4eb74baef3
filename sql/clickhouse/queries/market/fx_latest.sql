-- The newest US-dollar value of each of the given currencies, with its day.
SELECT currency, toString(day) AS day, usd_per_unit
FROM holo.fx_to_usd
WHERE currency IN {currencies:Array(String)}
ORDER BY day DESC
LIMIT 1 BY currency

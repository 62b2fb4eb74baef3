-- What the latest-prices export holds: the newest load and the number of price points.
SELECT concat(toString(max(ingested_at)), '/', toString(count())) AS stamp FROM holo.price_points

-- The months of price history per game, each with a stamp that changes whenever anything is loaded
-- for it (the newest ingested_at and the row count): the bulk export rewrites a month only then.
SELECT game, toString(toStartOfMonth(as_of)) AS month, concat(toString(max(ingested_at)), '/', toString(count())) AS stamp
FROM holo.price_points
GROUP BY game, month
ORDER BY game, month

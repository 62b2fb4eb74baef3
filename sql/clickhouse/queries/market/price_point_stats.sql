-- Price points per game and source (outliers counted apart), and the newest day of each.
SELECT game, source, count() AS points, countIf(is_outlier) AS outliers, toString(max(as_of)) AS last_day
FROM holo.price_points
GROUP BY game, source
ORDER BY game, source

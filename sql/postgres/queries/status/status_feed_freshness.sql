-- Per source, seconds since its feeds were last checked (the stalest of its games).
SELECT source, extract(epoch FROM now() - min(last_checked_at))::float8 AS age_s
FROM feed_runs
GROUP BY source
ORDER BY source

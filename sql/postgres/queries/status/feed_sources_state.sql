-- Per source and game: the last check, the last load and its rows, and the last failure since.
SELECT coalesce(r.source, f.source) AS source, coalesce(r.game, f.game) AS game,
       r.last_status, r.last_checked_at, r.last_loaded_at, r.last_rows,
       f.failed_at AS last_failed_at, f.error AS last_error
FROM feed_runs r FULL JOIN feed_failures f ON f.source = r.source AND f.game = r.game
ORDER BY 1, 2

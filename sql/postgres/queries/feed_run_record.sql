-- Records that a source's feed for a game was checked now: loaded, or unchanged upstream.
INSERT INTO feed_runs (source, game, last_status, last_checked_at, last_loaded_at)
VALUES ($1, $2, $3, now(), CASE WHEN $3 = 'loaded' THEN now() END)
ON CONFLICT (source, game) DO UPDATE
SET last_status = EXCLUDED.last_status,
    last_checked_at = EXCLUDED.last_checked_at,
    last_loaded_at = coalesce(EXCLUDED.last_loaded_at, feed_runs.last_loaded_at)

-- Records that a source's feed for a game was checked now: loaded (with the rows written), or
-- unchanged upstream; a load clears the feed's last failure.
WITH cleared AS (
  DELETE FROM feed_failures WHERE source = $1 AND game = $2 AND $3 = 'loaded'
)
INSERT INTO feed_runs (source, game, last_status, last_checked_at, last_loaded_at, last_rows)
VALUES ($1, $2, $3, now(), CASE WHEN $3 = 'loaded' THEN now() END, $4)
ON CONFLICT (source, game) DO UPDATE
SET last_status = EXCLUDED.last_status,
    last_checked_at = EXCLUDED.last_checked_at,
    last_loaded_at = coalesce(EXCLUDED.last_loaded_at, feed_runs.last_loaded_at),
    last_rows = coalesce(EXCLUDED.last_rows, feed_runs.last_rows)

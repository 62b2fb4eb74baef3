-- Records a feed's failure now, with the upstream's reason (the newest replaces the one before).
INSERT INTO feed_failures (source, game, failed_at, error)
VALUES ($1, $2, now(), $3)
ON CONFLICT (source, game) DO UPDATE SET failed_at = EXCLUDED.failed_at, error = EXCLUDED.error

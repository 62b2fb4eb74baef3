-- A precompute starts: readers keep serving the current generation while it runs.
INSERT INTO card_analytics_state (generation, prices_epoch, day, watermark, pending_since)
VALUES (0, '', '1970-01-01', '1970-01-01T00:00:00Z', now())
ON CONFLICT (only_row) DO UPDATE SET pending_since = now()

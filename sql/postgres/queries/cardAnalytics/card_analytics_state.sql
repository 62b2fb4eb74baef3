-- The precompute's state (no row before the first precompute).
SELECT generation::text AS generation, prices_epoch, day::text AS day, watermark, pending_since
FROM card_analytics_state

-- Answers an interrupted precompute wrote beyond the current generation: its retry starts clean.
DELETE FROM card_analytics
WHERE generation > coalesce((SELECT generation FROM card_analytics_state), 0)

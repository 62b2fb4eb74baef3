-- Empties the precompute's batch table before the next batch of cards.
TRUNCATE TABLE holo.card_analytics_batch

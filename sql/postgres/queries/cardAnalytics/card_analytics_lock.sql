-- One precompute at a time (feeds land side by side): held by the precompute's own session.
SELECT pg_advisory_lock(hashtext('holo.card_analytics'))

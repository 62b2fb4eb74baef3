-- The precompute's lock, released by the session that took it.
SELECT pg_advisory_unlock(hashtext('holo.card_analytics'))

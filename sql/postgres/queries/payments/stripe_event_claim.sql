-- Claims a Stripe event for processing: its id when it is new, none when it was delivered before
-- (a concurrent delivery of the same event waits here until the first one commits).
INSERT INTO stripe_events (id, type, outcome) VALUES ($1, $2, 'received')
ON CONFLICT (id) DO NOTHING
RETURNING id

-- What processing a Stripe event did.
UPDATE stripe_events SET outcome = $2 WHERE id = $1

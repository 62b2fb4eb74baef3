-- An SMTP exchange for an outbox e-mail failed; the claim is released for the next run.
UPDATE email_outbox SET attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1

-- An outbox e-mail went out over SMTP.
UPDATE email_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL, claimed_until = NULL WHERE id = $1

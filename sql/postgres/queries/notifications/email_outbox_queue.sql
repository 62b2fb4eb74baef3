-- An e-mail into the outbox; its id.
INSERT INTO email_outbox (user_id, to_address, kind, subject, body_text) VALUES ($1, $2, $3, $4, $5) RETURNING id

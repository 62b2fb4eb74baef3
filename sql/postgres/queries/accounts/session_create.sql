-- A new session of an account, until $3.
INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)

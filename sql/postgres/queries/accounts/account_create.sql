-- A new account; its id (read it back through live_accounts).
INSERT INTO users (username, email, password_hash, is_seller, display_name, country)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id

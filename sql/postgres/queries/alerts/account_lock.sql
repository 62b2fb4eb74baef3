-- Locks an account's row for the rest of the transaction (caps counted under it cannot be raced).
SELECT id FROM users WHERE id = $1 FOR UPDATE

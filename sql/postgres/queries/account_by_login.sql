-- The live account a username or e-mail names, with its password hash.
SELECT a.*, u.password_hash
FROM live_accounts a JOIN users u ON u.id = a.id
WHERE a.username = lower($1) OR lower(a.email) = lower($1)
LIMIT 1

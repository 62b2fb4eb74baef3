-- The live account a sign-in name names, with its password hash. $1 is the canonical name
-- (canonicalLogin: trimmed, lowercased, ASCII), compared as it is: usernames are stored lowercase,
-- e-mails as typed (ASCII), so lower() here only folds ASCII letters.
SELECT a.*, u.password_hash
FROM live_accounts a JOIN users u ON u.id = a.id
WHERE a.username = $1 OR lower(a.email) = $1
LIMIT 1

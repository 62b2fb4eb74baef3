-- Whether a username (exactly) or a live account's e-mail (any case) is already taken, and which.
SELECT CASE WHEN username = $1 THEN 'username' ELSE 'email' END AS what
FROM users
WHERE username = $1 OR (lower(email) = lower($2) AND deleted_at IS NULL)
LIMIT 1

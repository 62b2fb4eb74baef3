-- What an account has chosen to receive by e-mail; $2/$3 change it when given (NULL keeps).
UPDATE users SET email_alerts = coalesce($2, email_alerts), email_digest = coalesce($3, email_digest)
WHERE id = $1
RETURNING email_alerts AS alert_emails, email_digest AS digest_emails

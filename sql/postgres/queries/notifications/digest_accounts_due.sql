-- Accounts a scheduled digest goes to: opted in, with an address and alerts, not yet sent one this UTC day.
SELECT u.id, u.username, u.email
FROM users u
WHERE u.email IS NOT NULL AND u.deleted_at IS NULL AND u.email_digest
  AND EXISTS (SELECT 1 FROM price_alerts a WHERE a.user_id = u.id)
  AND NOT EXISTS (SELECT 1 FROM email_outbox o WHERE o.user_id = u.id AND o.kind = 'digest'
                  AND o.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')

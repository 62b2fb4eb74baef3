-- The account of a live session: not revoked, not expired, account not deleted.
SELECT a.*
FROM sessions s JOIN live_accounts a ON a.id = s.user_id
WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now()

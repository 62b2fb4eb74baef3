-- Whom a user blocks, newest first.
SELECT b.blocked_id AS user_id, u.username,
       to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS blocked_at
FROM user_blocks b JOIN users u ON u.id = b.blocked_id
WHERE b.blocker_id = $1
ORDER BY b.created_at DESC

-- An account's notifications, newest first, before the id $2 (NULL: from the newest), at most $3.
SELECT id::int AS id, kind, title, body, data,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS read_at
FROM notifications
WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2)
ORDER BY id DESC
LIMIT $3

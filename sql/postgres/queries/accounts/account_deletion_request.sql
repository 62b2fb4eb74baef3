-- Records a deletion request (the first one counts); when the account may be deleted, $2 hours on.
UPDATE users SET delete_requested_at = coalesce(delete_requested_at, now())
WHERE id = $1
RETURNING to_char((delete_requested_at + $2::int * interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS at

-- Whether an account asked to be deleted, and whether $2 hours have passed since.
SELECT delete_requested_at IS NOT NULL AS requested,
       coalesce(delete_requested_at <= now() - $2::int * interval '1 hour', false) AS ready
FROM users
WHERE id = $1

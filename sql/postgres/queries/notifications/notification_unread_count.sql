-- Unread notifications of an account.
SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL

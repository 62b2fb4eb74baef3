-- Marks every unread notification of an account read; one row per notification marked.
UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL RETURNING id

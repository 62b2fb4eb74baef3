-- Marks one own notification read (its first read time is kept); no row when it is not the account's.
UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id

-- The recipient has read a message (the first reading counts); its id when it is theirs.
UPDATE messages SET read_at = coalesce(read_at, now()) WHERE id = $1 AND recipient_id = $2 RETURNING id

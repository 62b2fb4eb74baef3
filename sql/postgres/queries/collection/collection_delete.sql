-- Removes an entry of a user's collection; its id when it was theirs.
DELETE FROM collection_entries WHERE id = $1 AND user_id = $2 RETURNING id

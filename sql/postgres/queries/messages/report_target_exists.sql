-- Whether a report's target exists: a listing, a live user, or a message the reporter received.
SELECT 1 AS id WHERE
  ($1 = 'listing' AND EXISTS (SELECT 1 FROM listings WHERE id = $2))
  OR ($1 = 'user' AND EXISTS (SELECT 1 FROM users WHERE id = $2 AND deleted_at IS NULL))
  OR ($1 = 'message' AND EXISTS (SELECT 1 FROM messages WHERE id = $2 AND recipient_id = $3))

-- A user's messages, newest first: received ($2 = 'inbox'), sent ('sent') or both ('all'),
-- optionally about one listing ($3); $4 limit.
SELECT * FROM message_records
WHERE (($2 IN ('inbox', 'all') AND recipient_id = $1) OR ($2 IN ('sent', 'all') AND sender_id = $1))
  AND ($3::int IS NULL OR listing_id = $3)
ORDER BY id DESC
LIMIT $4

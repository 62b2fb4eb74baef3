-- A user's conversations: one per other user and listing, with the last message and how many of
-- theirs are unread (the service orders them newest first).
WITH mine AS (
  SELECT m.id, m.listing_id, m.subject, m.created_at, m.recipient_id, m.read_at,
         CASE WHEN m.sender_id = $1 THEN m.recipient_id ELSE m.sender_id END AS other_id
  FROM messages m
  WHERE m.sender_id = $1 OR m.recipient_id = $1
)
SELECT DISTINCT ON (mine.other_id, mine.listing_id)
       mine.other_id AS other_user_id, u.username AS other_username, mine.listing_id,
       (count(*) OVER w)::int AS messages,
       (count(*) FILTER (WHERE mine.recipient_id = $1 AND mine.read_at IS NULL) OVER w)::int AS unread,
       mine.id AS last_message_id, mine.subject AS last_subject,
       to_char(mine.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_at
FROM mine JOIN users u ON u.id = mine.other_id
WINDOW w AS (PARTITION BY mine.other_id, mine.listing_id)
ORDER BY mine.other_id, mine.listing_id, mine.id DESC

-- The newest ratings a user received, with who gave them.
SELECT r.rating, r.review, u.username AS buyer,
       to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ts
FROM transaction_ratings r
JOIN users u ON u.id = r.rater_id
WHERE r.ratee_id = $1
ORDER BY r.created_at DESC, r.transaction_id DESC
LIMIT $2

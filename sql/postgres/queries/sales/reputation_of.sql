-- What a user received: average rating and how many (none when there is no such user).
SELECT u.id AS user_id, coalesce(avg(r.rating), 0)::float8 AS avg, count(r.rating)::int AS count
FROM users u
LEFT JOIN transaction_ratings r ON r.ratee_id = u.id
WHERE u.username = $1 AND u.deleted_at IS NULL
GROUP BY u.id

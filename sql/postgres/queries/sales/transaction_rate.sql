-- A party's rating of a transaction; its id, or none when this party rated it already.
INSERT INTO transaction_ratings (transaction_id, rater_id, ratee_id, rating, review)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (transaction_id, rater_id) DO NOTHING
RETURNING transaction_id AS id

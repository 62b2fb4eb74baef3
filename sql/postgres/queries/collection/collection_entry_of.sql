-- One entry of a user's collection, locked for the rest of the transaction (none when it is not theirs).
SELECT id, card_id, variant_id, quantity, condition, price_paid, graded, grading_company, grade::float8 AS grade
FROM collection_entries WHERE id = $1 AND user_id = $2
FOR UPDATE

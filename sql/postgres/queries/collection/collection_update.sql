-- Writes an entry whole; its id (none when the result would duplicate another entry of the user).
UPDATE collection_entries
SET variant_id = $2, quantity = $3, condition = $4, price_paid = $5, graded = $6, grading_company = $7, grade = $8, updated_at = now()
WHERE id = $1
RETURNING id

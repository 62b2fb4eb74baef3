-- A seller's own listings, newest first, optionally in one state ($2); $3 limit, $4 offset.
SELECT * FROM listing_records
WHERE seller_id = $1 AND ($2::text IS NULL OR status = $2)
ORDER BY id DESC
LIMIT $3 OFFSET $4

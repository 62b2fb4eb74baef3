-- One listing as reads show it.
SELECT * FROM listing_records WHERE id = $1

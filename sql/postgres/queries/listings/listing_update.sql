-- Writes the changeable fields of a listing (the service merged the change into the current row;
-- the price $2 in cents).
UPDATE listings
SET price = $2::int / 100.0, condition = $3, quantity = $4, variant = $5, description = $6, accepts_offers = $7,
    buy_now_enabled = $8, image_urls = $9, updated_at = now()
WHERE id = $1

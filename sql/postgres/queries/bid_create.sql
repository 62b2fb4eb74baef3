-- A new open bid; its id.
INSERT INTO bids (listing_id, bidder_id, amount, message) VALUES ($1, $2, $3, $4) RETURNING id

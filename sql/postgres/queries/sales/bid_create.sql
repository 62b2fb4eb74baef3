-- A new open bid of $3 cents; its id.
INSERT INTO bids (listing_id, bidder_id, amount, message) VALUES ($1, $2, $3::int / 100.0, $4) RETURNING id

-- One bid of a listing.
SELECT id, bidder_id, amount::float8 AS amount, status FROM bids WHERE id = $2 AND listing_id = $1

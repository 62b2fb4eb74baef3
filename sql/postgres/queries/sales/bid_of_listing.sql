-- One bid of a listing.
SELECT id, bidder_id, (amount * 100)::int AS amount_cents, status FROM bids WHERE id = $2 AND listing_id = $1

-- A listing's owner and state, locked for the rest of the transaction (changes of one listing
-- happen one after the other: an update never overwrites a sale).
SELECT id, seller_id, status, expires_at <= now() AS past_expiry
FROM listings WHERE id = $1
FOR UPDATE

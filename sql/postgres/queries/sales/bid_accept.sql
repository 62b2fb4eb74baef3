-- The bid is accepted (its listing's other open bids are closed when the listing is marked sold).
UPDATE bids SET status = 'accepted' WHERE id = $1

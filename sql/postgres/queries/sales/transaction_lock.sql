-- A transaction's parties and state, locked for the rest of the transaction (moves happen one
-- after the other).
SELECT id, listing_id, buyer_id, seller_id, status FROM transactions WHERE id = $1 FOR UPDATE

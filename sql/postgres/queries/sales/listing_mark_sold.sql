-- The listing is sold; its open bids are closed.
WITH sold AS (UPDATE listings SET status = 'sold', updated_at = now() WHERE id = $1 RETURNING id)
UPDATE bids SET status = 'closed' WHERE listing_id IN (SELECT id FROM sold) AND status = 'open'

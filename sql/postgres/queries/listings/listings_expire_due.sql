-- Marks open listings past their expiry expired, at most $1 at a time, with what the renewal
-- e-mail says and whom it goes to.
WITH due AS (
  SELECT id FROM listings WHERE status = 'active' AND expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
), expired AS (
  UPDATE listings l SET status = 'expired', updated_at = now() FROM due WHERE l.id = due.id
  RETURNING l.id, l.seller_id, l.card_id, l.price
)
SELECT e.id AS listing_id, e.seller_id, u.email, u.username, c.name AS card_name, e.price
FROM expired e JOIN users u ON u.id = e.seller_id JOIN cards c ON c.id = e.card_id

-- After a price run ($1 cards, $2 their USD market prices): thresholds the price is now at or under
-- are marked notified and returned (once: a marked one is not returned again while it stays
-- under), and thresholds the price rose above again are armed for the next fall.
WITH prices AS (
  SELECT DISTINCT ON (card_id) card_id, price FROM unnest($1::int[], $2::numeric[]) AS u (card_id, price)
), rearmed AS (
  UPDATE wishlist_items w SET notified_at = NULL
  FROM prices p
  WHERE w.card_id = p.card_id AND w.notified_at IS NOT NULL AND p.price > w.max_price
  RETURNING w.id
), crossed AS (
  UPDATE wishlist_items w SET notified_at = now()
  FROM prices p
  WHERE w.card_id = p.card_id AND w.max_price IS NOT NULL AND w.notified_at IS NULL AND p.price <= w.max_price
  RETURNING w.id, w.user_id, w.card_id, w.max_price, p.price
)
SELECT x.id, x.user_id, x.card_id, c.name AS card_name, x.max_price::float8 AS max_price, x.price::float8 AS price,
       u.email, u.email_alerts
FROM crossed x JOIN cards c ON c.id = x.card_id JOIN users u ON u.id = x.user_id
ORDER BY x.id

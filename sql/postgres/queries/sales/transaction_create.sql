-- A new transaction awaiting payment (amount, handling fee and buyer total in cents), and its first event (by $9, who set it off); its id.
WITH created AS (
  INSERT INTO transactions (listing_id, bid_id, buyer_id, seller_id, amount, currency, handling_fee, buyer_total)
  VALUES ($1, $2, $3, $4, $5::int / 100.0, $6, $7::int / 100.0, $8::int / 100.0)
  RETURNING id
), event AS (
  INSERT INTO transaction_events (transaction_id, actor_id, from_status, to_status)
  SELECT id, $9, NULL, 'awaiting_payment' FROM created
)
SELECT id FROM created

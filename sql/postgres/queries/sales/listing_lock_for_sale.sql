-- What deciding a sale of a listing needs, with the listing locked until the transaction ends:
-- of any number of buyers and accepts at once, one finds it active, the rest find it sold.
SELECT id, seller_id, status, expires_at <= now() AS past_expiry, buy_now_enabled, accepts_offers, (price * 100)::int AS price_cents,
       variant
FROM listings WHERE id = $1
FOR UPDATE

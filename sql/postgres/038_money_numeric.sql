-- Money to the cent (issue 34): the marketplace's views hand amounts over as the numeric(12, 2)
-- they are kept in (text to the driver, exact), not as float8.
DROP VIEW listing_records;
CREATE VIEW listing_records AS
SELECT l.id, l.seller_id, l.card_id, c.name AS card_name, s.name AS set_name, g.slug AS tcg_slug,
       u.username AS seller_username, l.price, l.currency, l.condition, l.quantity,
       l.variant, l.graded, l.grading_company, l.grade::float8 AS grade, l.description,
       l.accepts_offers, l.buy_now_enabled, l.image_urls, l.watermark_enabled,
       CASE WHEN l.status = 'active' AND l.expires_at <= now() THEN 'expired' ELSE l.status END AS status,
       l.verification_code,
       to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at,
       l.renewal_count,
       to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM listings l
JOIN cards c ON c.id = l.card_id
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
JOIN users u ON u.id = l.seller_id;

DROP VIEW transaction_records;
CREATE VIEW transaction_records AS
SELECT t.id, t.listing_id, t.bid_id, t.buyer_id, t.seller_id, b.username AS buyer_username, s.username AS seller_username,
       c.name AS card_name, t.amount, t.currency, t.handling_fee, t.buyer_total, t.status, t.carrier, t.tracking_number,
       to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at
FROM transactions t
JOIN users b ON b.id = t.buyer_id
JOIN users s ON s.id = t.seller_id
JOIN listings l ON l.id = t.listing_id
JOIN cards c ON c.id = l.card_id;

-- What a refund returned, in cents, as Stripe confirmed it (the whole payment).
ALTER TABLE checkout_sessions ADD COLUMN refund_cents integer;

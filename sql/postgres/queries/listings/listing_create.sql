-- A new listing (its price $3 in cents), open for the listing lifetime ($14 days); its id, or none when its verification
-- code ($16) is taken (the caller draws another).
INSERT INTO listings (seller_id, card_id, game_id, price, condition, quantity, variant, graded, grading_company, grade,
                      description, accepts_offers, buy_now_enabled, image_urls, watermark_enabled,
                      verification_code, expires_at)
SELECT $1, $2, c.game_id, $3::int / 100.0, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15, $16, now() + make_interval(days => $14)
FROM cards c WHERE c.id = $2
ON CONFLICT (verification_code) DO NOTHING
RETURNING id

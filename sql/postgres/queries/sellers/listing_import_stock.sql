-- One imported stock article: a new open listing, or, when the seller's open listing of the same
-- article exists, its price, condition and quantity set to the export's (never added to). Whether
-- it was inserted. The price $3 in cents.
INSERT INTO listings (seller_id, card_id, game_id, price, condition, quantity, description, verification_code, expires_at, stock_ref)
SELECT $1, c.id, c.game_id, $3::int / 100.0, $4, $5, $6, $7, now() + make_interval(days => $8), $9
FROM cards c WHERE c.id = $2
ON CONFLICT (seller_id, stock_ref) WHERE stock_ref IS NOT NULL AND status = 'active'
DO UPDATE SET price = EXCLUDED.price, condition = EXCLUDED.condition, quantity = EXCLUDED.quantity,
              description = EXCLUDED.description, updated_at = now()
RETURNING (xmax = 0) AS inserted

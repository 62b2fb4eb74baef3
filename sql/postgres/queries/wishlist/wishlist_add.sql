-- Puts a card on a user's wishlist, or changes its max price (a changed threshold is armed again).
-- The item's id.
INSERT INTO wishlist_items (user_id, card_id, max_price) VALUES ($1, $2, $3)
ON CONFLICT (user_id, card_id) DO UPDATE
  SET max_price = EXCLUDED.max_price,
      notified_at = CASE WHEN wishlist_items.max_price IS DISTINCT FROM EXCLUDED.max_price THEN NULL ELSE wishlist_items.notified_at END
RETURNING id

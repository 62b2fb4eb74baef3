-- Adds cards to a deck's sections (parallel arrays); more of a card already there adds to its
-- quantity (at most 999). Touches the deck's updated_at.
WITH added AS (
  INSERT INTO deck_cards (deck_id, card_id, section, quantity)
  SELECT $1, t.card_id, t.section, t.quantity FROM unnest($2::int[], $3::text[], $4::int[]) AS t (card_id, section, quantity)
  ON CONFLICT (deck_id, section, card_id) DO UPDATE SET quantity = least(deck_cards.quantity + EXCLUDED.quantity, 999)
  RETURNING 1
)
UPDATE decks SET updated_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM added)

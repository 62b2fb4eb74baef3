-- Takes a card out of a deck (of one section, or all when NULL); the rows removed.
WITH removed AS (
  DELETE FROM deck_cards WHERE deck_id = $1 AND card_id = $2 AND ($3::text IS NULL OR section = $3) RETURNING card_id
), touched AS (
  UPDATE decks SET updated_at = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM removed) RETURNING id
)
SELECT count(*)::int AS n FROM removed

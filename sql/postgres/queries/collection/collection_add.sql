-- Adds cards to a user's collection: a new entry, or more of the same card, variant, condition and
-- grading (price_paid: the latest given). The entry's id.
INSERT INTO collection_entries (user_id, card_id, variant_id, quantity, condition, price_paid, graded, grading_company, grade)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (user_id, card_id, variant_id, condition, graded, coalesce(grading_company, ''), coalesce(grade, 0)) DO UPDATE
  SET quantity = least(collection_entries.quantity + EXCLUDED.quantity, 100000),
      price_paid = coalesce(EXCLUDED.price_paid, collection_entries.price_paid),
      updated_at = now()
RETURNING id

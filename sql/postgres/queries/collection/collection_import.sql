-- Writes imported entries (parallel arrays): a new entry, or the quantity and price paid of the
-- same card, variant, condition and grading set to the file's (so importing a file again changes
-- nothing). How many rows it wrote.
WITH written AS (
  INSERT INTO collection_entries (user_id, card_id, variant_id, quantity, condition, price_paid, graded, grading_company, grade)
  SELECT $1, t.card_id, t.variant_id, t.quantity, t.condition, t.price_paid, t.graded, t.grading_company, t.grade
  FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::numeric[], $7::boolean[], $8::text[], $9::numeric[])
       AS t (card_id, variant_id, quantity, condition, price_paid, graded, grading_company, grade)
  ON CONFLICT (user_id, card_id, variant_id, condition, graded, coalesce(grading_company, ''), coalesce(grade, 0)) DO UPDATE
    SET quantity = EXCLUDED.quantity, price_paid = EXCLUDED.price_paid, updated_at = now()
  RETURNING 1
)
SELECT count(*)::int AS n FROM written

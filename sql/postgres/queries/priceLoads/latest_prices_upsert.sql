-- Moves the materialised latest price of series forward; an older day never overwrites a newer one,
-- and a value that did not change is not rewritten (so it keeps its place in the price-changes feed).
INSERT INTO variant_prices_latest AS l (variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::date[])
ON CONFLICT (variant_id, region, source, price_type, grading_company, grade) DO UPDATE
  SET currency = EXCLUDED.currency, amount = EXCLUDED.amount, as_of = EXCLUDED.as_of,
      changed_at = now(), change_xid = pg_current_xact_id(), change_seq = nextval('price_change_seq')
  WHERE l.as_of <= EXCLUDED.as_of AND (l.currency, l.amount, l.as_of) IS DISTINCT FROM (EXCLUDED.currency, EXCLUDED.amount, EXCLUDED.as_of)

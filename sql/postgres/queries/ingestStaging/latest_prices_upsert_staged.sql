-- Moves the materialised latest price of the staged series forward, as latest_prices_upsert.sql
-- does for arrays: an older day never overwrites a newer one, and a value that did not change is
-- not rewritten. Taken in series order, so two batches writing the same series wait for each
-- other instead of deadlocking.
INSERT INTO variant_prices_latest AS l (variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of)
SELECT variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of
FROM staged_latest_prices
ORDER BY variant_id, region, source, price_type, grading_company, grade
ON CONFLICT (variant_id, region, source, price_type, grading_company, grade) DO UPDATE
  SET currency = EXCLUDED.currency, amount = EXCLUDED.amount, as_of = EXCLUDED.as_of,
      changed_at = now(), change_xid = pg_current_xact_id(), change_seq = nextval('price_change_seq')
  WHERE l.as_of <= EXCLUDED.as_of AND (l.currency, l.amount, l.as_of) IS DISTINCT FROM (EXCLUDED.currency, EXCLUDED.amount, EXCLUDED.as_of)

-- Moves the materialised latest price of series forward; an older day never overwrites a newer one.
INSERT INTO variant_prices_latest (variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::date[])
ON CONFLICT (variant_id, region, source, price_type, grading_company, grade) DO UPDATE
  SET currency = EXCLUDED.currency, amount = EXCLUDED.amount, as_of = EXCLUDED.as_of
  WHERE variant_prices_latest.as_of <= EXCLUDED.as_of

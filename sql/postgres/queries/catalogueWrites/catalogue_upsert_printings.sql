-- Printings by upstream key, created or updated; each id with its key.
INSERT INTO printings (card_id, external_key, language, print_run, collector_number, is_promo)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[])
ON CONFLICT (external_key) DO UPDATE SET language = EXCLUDED.language, print_run = EXCLUDED.print_run,
  collector_number = EXCLUDED.collector_number, is_promo = EXCLUDED.is_promo
RETURNING id, external_key

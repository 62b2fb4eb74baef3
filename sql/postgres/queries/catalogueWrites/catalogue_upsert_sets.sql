-- Sets of game $1 by upstream key, created or updated (ids never change); each id with its key.
-- updated_at moves only when a field changed, so incremental sync sees real changes only.
INSERT INTO sets AS s (game_id, external_key, code, name, series, release_date, total_cards, printed_total, is_promo, language, logo_url, symbol_url, attributes)
SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::int[], $8::int[], $9::bool[], $10::text[], $11::text[], $12::text[], $13::jsonb[])
ON CONFLICT (external_key) DO UPDATE SET code = EXCLUDED.code, name = EXCLUDED.name, series = EXCLUDED.series,
  release_date = EXCLUDED.release_date, total_cards = EXCLUDED.total_cards, printed_total = EXCLUDED.printed_total,
  is_promo = EXCLUDED.is_promo, logo_url = EXCLUDED.logo_url, symbol_url = EXCLUDED.symbol_url, attributes = EXCLUDED.attributes,
  updated_at = CASE
    WHEN (s.code, s.name, s.series, s.release_date, s.total_cards, s.printed_total, s.is_promo, s.logo_url, s.symbol_url, s.attributes)
         IS DISTINCT FROM (EXCLUDED.code, EXCLUDED.name, EXCLUDED.series, EXCLUDED.release_date, EXCLUDED.total_cards,
                           EXCLUDED.printed_total, EXCLUDED.is_promo, EXCLUDED.logo_url, EXCLUDED.symbol_url, EXCLUDED.attributes)
    THEN now() ELSE s.updated_at END
RETURNING id, external_key

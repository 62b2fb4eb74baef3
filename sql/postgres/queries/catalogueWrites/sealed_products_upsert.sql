-- Sealed products of game $1 by upstream key, created or updated (ids never change).
INSERT INTO sealed_products (game_id, external_key, name, category, set_code, eu_marketplace_product_id, added_at)
SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[])
ON CONFLICT (external_key) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category, set_code = EXCLUDED.set_code

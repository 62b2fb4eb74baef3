-- Variants by upstream key, created or updated; each id with its key.
INSERT INTO variants (printing_id, external_key, finish, variant_label, print_rarity, is_ex, is_v, image_url)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::bool[], $8::text[])
ON CONFLICT (external_key) DO UPDATE SET finish = EXCLUDED.finish, variant_label = EXCLUDED.variant_label,
  print_rarity = EXCLUDED.print_rarity, is_ex = EXCLUDED.is_ex, is_v = EXCLUDED.is_v, image_url = EXCLUDED.image_url
RETURNING id, external_key

-- Card images by (card, source, kind), created or updated.
INSERT INTO images (card_id, source, kind, source_url, width, height)
SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
ON CONFLICT (card_id, source, kind) DO UPDATE SET source_url = EXCLUDED.source_url, width = EXCLUDED.width, height = EXCLUDED.height

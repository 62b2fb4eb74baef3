-- Upstream picture addresses of the given cards' images (every card when $1 is NULL).
SELECT card_id, kind, source_url FROM images WHERE ($1::int[] IS NULL OR card_id = ANY ($1)) ORDER BY card_id, kind

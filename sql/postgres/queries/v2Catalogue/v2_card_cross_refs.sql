-- A card's neutral cross-references, one value per key (card-level first).
SELECT DISTINCT ON (ref_key) ref_key, ref_value
FROM cross_refs
WHERE card_id = $1
ORDER BY ref_key, printing_id NULLS FIRST, ref_value

-- Cards by their pokemontcg.io id (the catalogue's upstream key), as cross-reference hits.
SELECT 'pokemontcg_id' AS ref_kind, substr(external_key, 12) AS ref_value, id AS card_id, NULL::int AS printing_id
FROM cards
WHERE external_key = ANY ($1)

-- pokemontcg.io compatibility: Pokémon cards by Holo id ($1) or pokemontcg.io id ($2), with the
-- kinds of picture Holo holds for them.
SELECT c.id AS card_id, c.set_id, substr(c.external_key, 12) AS id, c.name, c.card_type AS supertype, c.subtypes,
       c.collector_number AS number, c.artist, c.rarity, c.attributes, c.legalities,
       ARRAY(SELECT i.kind FROM images i WHERE i.card_id = c.id ORDER BY i.kind) AS image_kinds
FROM cards c
WHERE (c.id = ANY ($1::int[]) OR c.external_key = ANY (SELECT 'pokemontcg:' || u FROM unnest($2::text[]) u))
  AND c.external_key LIKE 'pokemontcg:%'

-- Cards of game $1 by upstream key, created or updated (ids never change); each id with its key.
-- updated_at moves only when a field changed, so incremental sync sees real changes only.
INSERT INTO cards AS c (game_id, set_id, external_key, name, collector_number, rarity, card_type, subtypes, artist, attributes, legalities)
SELECT $1, u.set_id, u.external_key, u.name, u.num, u.rarity, u.card_type, ARRAY(SELECT jsonb_array_elements_text(u.subtypes)), u.artist, u.attributes, u.legalities
FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::jsonb[], $11::jsonb[])
  AS u (set_id, external_key, name, num, rarity, card_type, subtypes, artist, attributes, legalities)
ON CONFLICT (external_key) DO UPDATE SET name = EXCLUDED.name, collector_number = EXCLUDED.collector_number,
  rarity = EXCLUDED.rarity, card_type = EXCLUDED.card_type, subtypes = EXCLUDED.subtypes, artist = EXCLUDED.artist,
  attributes = EXCLUDED.attributes, legalities = EXCLUDED.legalities,
  updated_at = CASE
    WHEN (c.name, c.collector_number, c.rarity, c.card_type, c.subtypes, c.artist, c.attributes, c.legalities)
         IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.collector_number, EXCLUDED.rarity, EXCLUDED.card_type, EXCLUDED.subtypes,
                           EXCLUDED.artist, EXCLUDED.attributes, EXCLUDED.legalities)
    THEN now() ELSE c.updated_at END
RETURNING id, external_key

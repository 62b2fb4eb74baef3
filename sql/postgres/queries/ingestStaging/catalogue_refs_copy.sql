-- Every reference price mapping resolves, as TabSeparated for the ClickHouse copy (catalogue_refs):
-- the cross references, and the catalogue's own pokemontcg.io ids ("pokemontcg:<id>" cards).
-- The version comes from the same snapshot as the rows.
COPY (
  SELECT v.version, r.ref_key, r.ref_value, r.card_id, r.printing_id
  FROM cross_refs r CROSS JOIN catalogue_version v
  UNION ALL
  SELECT v.version, 'pokemontcg_id', substr(c.external_key, 12), c.id, NULL
  FROM cards c CROSS JOIN catalogue_version v
  WHERE c.external_key LIKE 'pokemontcg:%'
) TO STDOUT

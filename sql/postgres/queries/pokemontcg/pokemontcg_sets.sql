-- pokemontcg.io compatibility: Pokémon sets by Holo id ($1) or pokemontcg.io id ($2).
SELECT s.id AS set_id, substr(s.external_key, 12) AS id, s.name, s.series, s.printed_total, s.total_cards AS total, s.attributes,
       to_char(s.release_date, 'YYYY/MM/DD') AS release_date,
       to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY/MM/DD HH24:MI:SS') AS updated_at, s.logo_url, s.symbol_url
FROM sets s
WHERE (s.id = ANY ($1::int[]) OR s.external_key = ANY (SELECT 'pokemontcg:' || u FROM unnest($2::text[]) u))
  AND s.external_key LIKE 'pokemontcg:%'

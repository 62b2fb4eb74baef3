-- pokemontcg.io compatibility: a page ($1 limit, $2 offset) of the ids of the Pokémon cards from
-- pokemontcg.io's catalogue that match a compiled q, in a compiled orderBy, and how many match.
-- The where and order markers are filled by sql/pokemontcg.ts with fixed SQL and $3…
-- placeholders; as written (no q, default order) the file runs on its own.
SELECT count(*) OVER ()::int AS total, c.id
FROM cards c
JOIN sets s ON s.id = c.set_id
WHERE c.game_id = (SELECT id FROM games WHERE slug = 'pokemon') AND c.external_key LIKE 'pokemontcg:%' AND (TRUE /*where*/)
ORDER BY /*order*/ s.release_date ASC NULLS LAST, s.id, NULLIF(substring(c.collector_number FROM '\d+'), '')::numeric NULLS LAST, c.collector_number, c.id
LIMIT $1 OFFSET $2

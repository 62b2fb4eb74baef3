-- pokemontcg.io compatibility: a page ($1 limit, $2 offset) of the ids of the Pokémon sets from
-- pokemontcg.io's catalogue that match a compiled q, in a compiled orderBy, and how many match.
-- The where and order markers are filled by sql/pokemontcg.ts with fixed SQL and $3…
-- placeholders; as written (no q, default order) the file runs on its own.
SELECT count(*) OVER ()::int AS total, s.id
FROM sets s
WHERE s.game_id = (SELECT id FROM games WHERE slug = 'pokemon') AND s.external_key LIKE 'pokemontcg:%' AND (TRUE /*where*/)
ORDER BY /*order*/ s.release_date ASC NULLS LAST, s.id
LIMIT $1 OFFSET $2

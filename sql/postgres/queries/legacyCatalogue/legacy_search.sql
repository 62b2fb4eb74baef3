-- Legacy card search. A card matches when its name equals the query, starts with it, contains
-- all its words (full text, simple dictionary), or is similar to it (trigram, for misspellings);
-- every filter ANDs. Ranked exact > prefix > words > similar, then by similarity, then the
-- priciest first. Parameters:
--   $1 q, $2 tcg slug, $3 set id, $4 rarity, $5 min price, $6 max price (USD, best_price),
--   $7 foil status (nonfoil: normal or holofoil, the standard print | foil: any other foil | etched), $8 language, $9 limit, $10 offset.
-- The query is text, not a LIKE pattern: its % and _ are escaped (backslash, LIKE's default escape
-- character), so "%" finds names holding a percent sign rather than every card.
WITH q AS (
  SELECT lower($1::text) AS text, plainto_tsquery('simple', $1::text) AS words,
         replace(replace(replace(lower($1::text), '\', '\\'), '%', '\%'), '_', '\_') AS pattern
),
matched AS (
  SELECT c.id,
         CASE WHEN lower(c.name) = q.text THEN 0
              WHEN lower(c.name) LIKE q.pattern || '%' THEN 1
              WHEN c.name_tsv @@ q.words THEN 2
              ELSE 3 END AS rank,
         similarity(lower(c.name), q.text) AS sim
  FROM cards c, q
  WHERE (lower(c.name) LIKE '%' || q.pattern || '%' OR c.name_tsv @@ q.words OR lower(c.name) % q.text)
)
SELECT c.id, c.set_id AS card_set_id, c.name, c.collector_number AS number, c.rarity, c.card_type,
       (SELECT i.source_url FROM images i WHERE i.card_id = c.id ORDER BY (i.kind = 'large') DESC, i.id LIMIT 1) AS image_url,
       c.attributes, s.name AS set_name, s.code AS set_code, g.slug AS tcg_slug,
       b.best_price::float8 AS best_price, b.variant_id AS price_variant_id, m.rank,
       count(*) OVER ()::int AS total
FROM matched m
JOIN cards c ON c.id = m.id
JOIN games g ON g.id = c.game_id
JOIN sets s ON s.id = c.set_id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE ($2::text IS NULL OR g.slug = $2)
  AND ($3::int IS NULL OR c.set_id = $3)
  AND ($4::text IS NULL OR lower(c.rarity) = lower($4))
  AND ($5::numeric IS NULL OR b.best_price >= $5)
  AND ($6::numeric IS NULL OR b.best_price <= $6)
  AND ($7::text IS NULL OR EXISTS (
        SELECT 1 FROM printings p JOIN variants v ON v.printing_id = p.id
        WHERE p.card_id = c.id
          AND CASE $7::text WHEN 'nonfoil' THEN v.finish IN ('normal', 'holofoil')
                            WHEN 'etched' THEN v.finish = 'etched'
                            ELSE v.finish NOT IN ('normal', 'holofoil', 'etched') END))
  AND ($8::text IS NULL OR EXISTS (SELECT 1 FROM printings p WHERE p.card_id = c.id AND p.language = $8))
ORDER BY m.rank, m.sim DESC, b.best_price DESC NULLS LAST, c.id
LIMIT $9 OFFSET $10

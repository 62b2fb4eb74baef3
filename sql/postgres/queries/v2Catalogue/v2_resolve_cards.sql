-- Cards of a game by exact name (any case), optionally by collector number without leading zeros and by set code or id; newest sets first.
SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type,
       EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id) AS has_image,
       s.id AS set_id, s.code AS set_code, s.name AS set_name
FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id
WHERE g.slug = $1 AND lower(c.name) = lower($2)
  AND ($3::text IS NULL OR lower(regexp_replace(c.collector_number, '^0+(?=.)', '')) = $3)
  AND ($4::text IS NULL OR lower(s.code) = lower($4) OR s.id = $5)
ORDER BY s.release_date DESC NULLS LAST, NULLIF(substring(c.collector_number FROM '\d+'), '')::numeric NULLS LAST, c.collector_number, c.id
LIMIT 50

-- A page of a set's cards in collector-number order: the numeric part first ("2" before "10"), then as text ("TG01").
-- With $4, only cards that changed after it.
SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type,
       EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id) AS has_image,
       to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
FROM cards c
WHERE c.set_id = $1 AND ($4::timestamptz IS NULL OR c.updated_at > $4::timestamptz)
ORDER BY NULLIF(substring(c.collector_number FROM '\d+'), '')::numeric NULLS LAST, c.collector_number, c.id
LIMIT $2 OFFSET $3

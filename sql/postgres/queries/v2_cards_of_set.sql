-- A page of a set's cards in collector-number order: the numeric part first ("2" before "10"), then as text ("TG01").
SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type,
       EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id) AS has_image
FROM cards c
WHERE c.set_id = $1
ORDER BY NULLIF(substring(c.collector_number FROM '\d+'), '')::numeric NULLS LAST, c.collector_number, c.id
LIMIT $2 OFFSET $3

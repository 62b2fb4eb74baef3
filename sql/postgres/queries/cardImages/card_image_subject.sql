-- What an image of a card shows (name, number, set) and whether the catalogue lists that kind of image.
SELECT c.name, c.collector_number, s.name AS set_name,
       EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id AND i.kind = $2) AS has_kind
FROM cards c JOIN sets s ON s.id = c.set_id
WHERE c.id = $1

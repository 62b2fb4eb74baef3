-- A card's catalogued images, large first.
SELECT kind, source, width, height FROM images WHERE card_id = $1 ORDER BY (kind = 'large') DESC, id

-- Whether a card exists.
SELECT id FROM cards WHERE id = $1

-- A card's variants in display order (no row: no such card; a NULL variant: a card without variants).
SELECT c.id AS card_id, v.id AS variant_id
FROM cards c LEFT JOIN printings p ON p.card_id = c.id LEFT JOIN variants v ON v.printing_id = p.id
WHERE c.id = $1
ORDER BY p.id, v.id

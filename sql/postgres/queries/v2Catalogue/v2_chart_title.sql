-- What names a card's price chart: the card, its set and number, and the variant shown.
SELECT c.name, s.name AS set_name, c.collector_number, v.variant_label
FROM cards c
JOIN sets s ON s.id = c.set_id
JOIN printings p ON p.card_id = c.id
JOIN variants v ON v.printing_id = p.id
WHERE c.id = $1 AND v.id = $2

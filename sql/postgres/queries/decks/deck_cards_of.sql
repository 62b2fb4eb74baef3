-- The cards of a deck by section (main, sideboard, commander) and name, with reference prices (USD).
SELECT dc.card_id, c.name AS card_name, s.name AS set_name, dc.section, dc.quantity,
       b.best_price::float8 AS unit_value
FROM deck_cards dc
JOIN cards c ON c.id = dc.card_id
JOIN sets s ON s.id = c.set_id
LEFT JOIN card_best_prices b ON b.card_id = dc.card_id
WHERE dc.deck_id = $1
ORDER BY array_position(ARRAY['commander', 'main', 'sideboard'], dc.section), c.name, dc.card_id

-- The lowest and highest card id (nulls before any card).
SELECT min(id) AS first_card, max(id) AS last_card FROM cards

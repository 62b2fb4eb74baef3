-- Answers a newer current generation of the same card has replaced.
DELETE FROM card_analytics AS a
USING card_analytics_state AS s
WHERE a.generation < s.generation
  AND EXISTS (SELECT 1 FROM card_analytics AS n WHERE n.card_id = a.card_id AND n.generation > a.generation AND n.generation <= s.generation)

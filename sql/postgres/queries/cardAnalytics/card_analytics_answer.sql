-- One precomputed answer (rows as JSON text, null when not filed) of a card's query under a key,
-- from the card's newest generation not beyond the current one, with that generation and the state
-- that says whether it holds for the caller's prices epoch (the market's answers: card 0). No row:
-- nothing precomputed for the card.
SELECT (a.answers -> $3::text)::text AS answer, a.generation::text AS generation, s.prices_epoch,
       coalesce(s.pending_since > now() - interval '15 minutes', false) AS pending
FROM card_analytics_state AS s
JOIN card_analytics AS a ON a.card_id = $1 AND a.query = $2
WHERE s.generation > 0
  AND a.generation = (SELECT max(generation) FROM card_analytics WHERE card_id = $1 AND generation <= s.generation)

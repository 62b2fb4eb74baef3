-- The precomputed answers of one card for the named queries, from the card's newest generation not
-- beyond the current one (one statement: one snapshot, never two precomputes), with the state that
-- says whether they hold for the caller's prices epoch. A row with no query: a precompute covered
-- every card with prices and this card had none (its answers are empty); no row: nothing published.
SELECT a.query, a.answers::text AS answers, s.prices_epoch, s.day::text AS day,
       coalesce(s.pending_since > now() - interval '15 minutes', false) AS pending
FROM card_analytics_state AS s
LEFT JOIN card_analytics AS a
  ON a.card_id = $1 AND a.query = ANY($2::text[])
  AND a.generation = (SELECT max(generation) FROM card_analytics WHERE card_id = $1 AND generation <= s.generation)
WHERE s.generation > 0

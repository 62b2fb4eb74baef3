-- One query's answers for many cards under a generation ($1: card ids, $3: their answers as JSON
-- text, in the same order); a retried precompute overwrites its own rows.
INSERT INTO card_analytics (card_id, query, generation, answers)
SELECT card_id, $2, $4, answers::json
FROM unnest($1::integer[], $3::text[]) AS t(card_id, answers)
ON CONFLICT (card_id, generation, query) DO UPDATE SET answers = excluded.answers

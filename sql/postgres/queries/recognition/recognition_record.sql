-- Keeps an answered recognition; its id is what the confirm step names.
INSERT INTO recognitions (user_id, session_id, card_id, confidence, verdict, result)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at

-- Records what the user says the card is; a recognition is confirmed once.
INSERT INTO recognition_confirmations (recognition_id, user_id, card_id, suggested_card_id, collection_entry_id)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (recognition_id) DO NOTHING
RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at

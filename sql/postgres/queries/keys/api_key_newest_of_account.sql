-- An account's newest usable key (the one a session's "my key" shows), if any.
SELECT id FROM api_key_records WHERE user_id = $1 AND is_active ORDER BY id DESC LIMIT 1

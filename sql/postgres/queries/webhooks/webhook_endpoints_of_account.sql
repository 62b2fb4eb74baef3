-- An account's webhook endpoints, oldest first.
SELECT id, url, description, events, card_ids, secret_prefix, is_active, disabled_reason, consecutive_failures, created_at
FROM webhook_endpoint_records WHERE user_id = $1 ORDER BY id

-- One own webhook endpoint (none: not found or another account's).
SELECT id, url, description, events, card_ids, secret_prefix, is_active, disabled_reason, consecutive_failures, created_at
FROM webhook_endpoint_records WHERE id = $1 AND user_id = $2

-- An endpoint's deliveries, newest first.
SELECT id, event_id, event_type, status, attempts, last_status_code, last_error, created_at, last_attempt_at, delivered_at
FROM webhook_delivery_records WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2

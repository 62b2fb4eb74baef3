-- Pending deliveries whose workflow has not been started yet (a failed start is picked up next time).
SELECT id FROM webhook_deliveries WHERE started_at IS NULL AND status = 'pending' ORDER BY id LIMIT $1

-- A delivery with what an attempt needs: the frozen event, its state, and the endpoint's URL, sealed secret and state.
SELECT d.event, d.status, e.url, e.secret_enc, e.is_active, e.id AS endpoint_id
FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE d.id = $1

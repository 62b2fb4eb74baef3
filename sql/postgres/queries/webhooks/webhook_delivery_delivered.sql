-- An attempt got a 2xx: the delivery is delivered and its endpoint's failure count starts afresh.
WITH d AS (
  UPDATE webhook_deliveries
  SET status = 'delivered', attempts = attempts + 1, last_status_code = $2, last_error = NULL, last_attempt_at = now(), delivered_at = now()
  WHERE id = $1
  RETURNING endpoint_id
)
UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id IN (SELECT endpoint_id FROM d)

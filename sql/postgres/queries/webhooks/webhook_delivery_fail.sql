-- Every attempt failed: the delivery is failed, and its endpoint disabled after $2 such deliveries in a row (reason $3).
WITH d AS (UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1 AND status = 'pending' RETURNING endpoint_id)
UPDATE webhook_endpoints
SET consecutive_failures = consecutive_failures + 1,
    is_active = CASE WHEN consecutive_failures + 1 >= $2 THEN false ELSE is_active END,
    disabled_reason = CASE WHEN consecutive_failures + 1 >= $2 THEN $3 ELSE disabled_reason END
WHERE id IN (SELECT endpoint_id FROM d)
RETURNING NOT is_active AS disabled

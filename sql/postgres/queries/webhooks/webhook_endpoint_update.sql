-- Changes an own endpoint (NULL: keep); re-enabling starts the failure count afresh.
UPDATE webhook_endpoints
SET url = coalesce($3, url), description = coalesce($4, description), events = coalesce($5, events),
    card_ids = coalesce($6, card_ids), is_active = coalesce($7, is_active),
    disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
    consecutive_failures = CASE WHEN $7 THEN 0 ELSE consecutive_failures END
WHERE id = $1 AND user_id = $2
RETURNING id

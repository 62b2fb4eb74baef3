-- Alerts, webhook endpoints and deliveries as their owners see them, written once for every query
-- that reads them (timestamps as ISO 8601 UTC text; endpoints to the millisecond, as in 010).
CREATE VIEW price_alert_records AS
SELECT a.id, a.user_id, a.card_id, c.name AS card_name, a.target_price::float8 AS target_price, a.condition, a.currency, a.is_active,
       to_char(a.triggered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS triggered_at,
       to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM price_alerts a JOIN cards c ON c.id = a.card_id;

CREATE VIEW webhook_endpoint_records AS
SELECT id, user_id, url, description, events, card_ids, secret_prefix, is_active, disabled_reason, consecutive_failures,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
FROM webhook_endpoints;

CREATE VIEW webhook_delivery_records AS
SELECT id::int AS id, endpoint_id, event_id, event_type, status, attempts, last_status_code, last_error,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       to_char(last_attempt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_attempt_at,
       to_char(delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS delivered_at
FROM webhook_deliveries;

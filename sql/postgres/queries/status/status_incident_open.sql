-- Opens an incident for a check, or updates its open one (a worse severity sticks); opened is true
-- when this call opened it.
INSERT INTO status_incidents (check_name, title, severity, detail, opened_at, last_seen_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (check_name) WHERE resolved_at IS NULL DO UPDATE
SET severity = CASE WHEN EXCLUDED.severity = 'down' THEN 'down' ELSE status_incidents.severity END,
    title = CASE WHEN EXCLUDED.severity = 'down' THEN EXCLUDED.title ELSE status_incidents.title END,
    detail = EXCLUDED.detail,
    last_seen_at = greatest(status_incidents.last_seen_at, EXCLUDED.last_seen_at)
RETURNING id, (xmax = 0) AS opened

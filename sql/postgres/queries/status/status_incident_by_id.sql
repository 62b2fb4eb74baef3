-- One incident as the status page shows it.
SELECT id, "check", title, severity, detail, status, opened_at, last_seen_at, resolved_at, duration_s
FROM status_incident_records
WHERE id = $1

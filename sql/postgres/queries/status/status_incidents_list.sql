-- Incidents, newest first: $1 open, resolved or all; with the total of that filter.
SELECT id, "check", title, severity, detail, status, opened_at, last_seen_at, resolved_at, duration_s,
       count(*) OVER ()::int AS total
FROM status_incident_records
WHERE $1 = 'all' OR status = $1
ORDER BY opened_at_ts DESC, id DESC
LIMIT $2 OFFSET $3

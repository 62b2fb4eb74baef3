-- Resolves a check's open incident, if it has one, as of $2 (never before it opened).
UPDATE status_incidents SET resolved_at = greatest($2::timestamptz, opened_at)
WHERE check_name = $1 AND resolved_at IS NULL
RETURNING id

-- A report to the moderators; its id, or none when this user reported this target already.
INSERT INTO reports (reporter_id, target_type, target_id, reason, details) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (reporter_id, target_type, target_id) DO NOTHING
RETURNING id

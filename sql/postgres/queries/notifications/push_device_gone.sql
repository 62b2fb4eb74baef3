-- The push service says a device is gone (404, 410): it is disabled and its waiting pushes end.
WITH disabled AS (
  UPDATE push_devices SET disabled_at = now(), disabled_why = $2 WHERE id = $1 AND disabled_at IS NULL RETURNING id
)
UPDATE push_outbox SET state = 'gone', ended_at = now(), claimed_until = NULL, last_error = $2
WHERE device_id = $1 AND state = 'pending'

-- Up to $1 due pushes, each claimed for $2 seconds (another worker skips them) and counted as an
-- attempt, with their device.
WITH due AS (
  SELECT id FROM push_outbox
  WHERE state = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
  ORDER BY next_attempt_at, id
  LIMIT $1
  FOR UPDATE SKIP LOCKED
),
claimed AS (
  UPDATE push_outbox o SET claimed_until = now() + make_interval(secs => $2), attempts = o.attempts + 1
  FROM due WHERE o.id = due.id
  RETURNING o.id, o.device_id, o.title, o.body, o.data, o.attempts
)
SELECT c.id, c.attempts, c.title, c.body, c.data, d.id AS device_id, d.platform, d.token, d.p256dh, d.auth_secret
FROM claimed c JOIN push_devices d ON d.id = c.device_id
ORDER BY c.id

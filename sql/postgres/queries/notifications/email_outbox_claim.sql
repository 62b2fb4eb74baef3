-- Claims up to $1 unsent e-mails for $2 seconds. SKIP LOCKED and the claim window keep two
-- workers from taking the same row; rows past $3 attempts stay in the outbox for an operator.
UPDATE email_outbox
SET claimed_until = now() + make_interval(secs => $2)
WHERE id IN (
  SELECT id FROM email_outbox
  WHERE sent_at IS NULL AND attempts < $3 AND (claimed_until IS NULL OR claimed_until < now())
  ORDER BY id
  LIMIT $1
  FOR UPDATE SKIP LOCKED
)
RETURNING id, to_address, subject, body_text

-- Age in seconds of the oldest work still waiting in each queue (null: none waiting): e-mails not
-- sent that will still be tried ($1 attempts at most), webhook deliveries not finished.
SELECT
  (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM email_outbox WHERE sent_at IS NULL AND attempts < $1) AS email_s,
  (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM webhook_deliveries WHERE status = 'pending') AS webhook_s

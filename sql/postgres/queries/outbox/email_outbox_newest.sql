-- The newest e-mails of the outbox, queued, sent or failed, for operators.
SELECT id::int AS id, to_address, kind, subject, body_text,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS sent_at,
       attempts, last_error
FROM email_outbox
ORDER BY id DESC
LIMIT $1

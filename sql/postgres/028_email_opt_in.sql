-- E-mail about triggered alerts and the daily digest goes only to accounts that opted in (spec:
-- "if the user opted in"; issue 16 §3), through POST /me/notifications. Nobody could choose until
-- now, so nobody has opted in yet.
ALTER TABLE users ALTER COLUMN email_alerts SET DEFAULT false, ALTER COLUMN email_digest SET DEFAULT false;
UPDATE users SET email_alerts = false, email_digest = false WHERE email_alerts OR email_digest;

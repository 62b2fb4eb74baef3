-- E-mail is sent outside any transaction: a worker claims rows for a while (claimed_until), sends,
-- then marks each one. A worker that dies mid-batch leaves claims that simply expire, so the rows
-- are sent by the next run instead of being held by a transaction open across SMTP round trips.
ALTER TABLE email_outbox ADD COLUMN claimed_until timestamptz;

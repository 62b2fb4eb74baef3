-- Push for real (issue 16 §7). A Web Push device carries its subscription's keys (the token is its
-- endpoint URL); a device a push service says is gone (404, 410) is disabled, not deleted, so the
-- account sees why it stopped. Every push is first a row of push_outbox, written in the transaction
-- of its notification and sent by the outbox workflow, which retries with backoff; no request
-- waits on a push service.
ALTER TABLE push_devices
  ADD COLUMN p256dh         text,
  ADD COLUMN auth_secret    text,
  ADD COLUMN disabled_at    timestamptz,
  ADD COLUMN disabled_why   text;

CREATE TABLE push_outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id       integer NOT NULL REFERENCES push_devices (id) ON DELETE CASCADE,
  title           text NOT NULL,
  body            text NOT NULL,
  data            jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'gone', 'unconfigured')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  ended_at        timestamptz,
  last_error      text
);
CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX push_outbox_device ON push_outbox (device_id);

-- Workers LISTEN on holo_push_outbox and start a send run; PostgreSQL delivers the notification
-- only when the transaction that queued the pushes commits (and once per transaction).
CREATE FUNCTION push_outbox_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('holo_push_outbox', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER push_outbox_wake AFTER INSERT ON push_outbox FOR EACH STATEMENT EXECUTE FUNCTION push_outbox_wake();

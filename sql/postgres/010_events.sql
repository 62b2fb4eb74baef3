-- Price alerts and what they fan out to: in-app notifications, e-mail (an outbox, sent by SMTP
-- when configured), push to registered devices, and signed webhooks with a delivery log.

ALTER TABLE users
  ADD COLUMN email_alerts boolean NOT NULL DEFAULT true,  -- e-mail when an alert triggers
  ADD COLUMN email_digest boolean NOT NULL DEFAULT true;  -- the daily digest

CREATE TABLE price_alerts (
  id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_id         integer NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
  target_price    numeric(18, 4) NOT NULL CHECK (target_price > 0),
  condition       text NOT NULL CHECK (condition IN ('below', 'above')),
  currency        text NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  is_active       boolean NOT NULL DEFAULT true,
  triggered_at    timestamptz,
  triggered_price numeric(18, 4),
  created_at      timestamptz NOT NULL DEFAULT now()
);
-- Evaluation reads only armed alerts of the cards a run priced.
CREATE INDEX price_alerts_armed ON price_alerts (card_id) WHERE is_active AND triggered_at IS NULL;
CREATE INDEX price_alerts_user ON price_alerts (user_id, id);

CREATE TABLE notifications (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text NOT NULL,            -- price_alert, digest; later bid, message
  title      text NOT NULL,
  body       text NOT NULL,
  data       jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at    timestamptz
);
CREATE INDEX notifications_feed ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;

CREATE TABLE email_outbox (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    integer REFERENCES users (id) ON DELETE SET NULL,
  to_address text NOT NULL,
  kind       text NOT NULL,
  subject    text NOT NULL,
  body_text  text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz,
  attempts   integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX email_outbox_unsent ON email_outbox (id) WHERE sent_at IS NULL;

CREATE TABLE push_devices (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  platform     text NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
  token        text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_devices_user ON push_devices (user_id);

CREATE TABLE webhook_endpoints (
  id                   integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id              integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url                  text NOT NULL,
  description          text,
  -- The signing secret, AES-256-GCM encrypted (iv | tag | ciphertext) under the server's webhook
  -- key: it must be recoverable to sign, so it cannot be a one-way hash.
  secret_enc           bytea NOT NULL,
  secret_prefix        text NOT NULL,
  events               text[] NOT NULL,
  card_ids             integer[] NOT NULL DEFAULT '{}',
  is_active            boolean NOT NULL DEFAULT true,
  disabled_reason      text,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id);
CREATE INDEX webhook_endpoints_cards ON webhook_endpoints USING gin (card_ids) WHERE is_active;

CREATE TABLE webhook_deliveries (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id      integer NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         uuid NOT NULL,
  event_type       text NOT NULL,
  event            jsonb NOT NULL,       -- {id, type, created_at, data}
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  started_at       timestamptz,          -- its Temporal workflow was started
  last_attempt_at  timestamptz,
  delivered_at     timestamptz,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_unstarted ON webhook_deliveries (id) WHERE started_at IS NULL;

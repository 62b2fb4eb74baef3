-- Card recognition and scan sessions (issue 17). recognition_features is the recognition index:
-- one row per card picture and cut (0 the whole card, 1 inside its printed border), with the
-- SHA-256 of the picture it was computed from, so a changed picture is recomputed and an
-- unchanged one never is. The API holds the rows in memory; index_version tells it when to reload.
CREATE TABLE recognition_features (
  card_id      integer NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
  cut          smallint NOT NULL CHECK (cut IN (0, 1)),
  image_sha256 text NOT NULL,
  features     bytea NOT NULL,
  computed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (card_id, cut)
);

-- Every recognition answered, for the confirm step and for measuring accuracy on real traffic.
CREATE TABLE recognitions (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      integer REFERENCES users (id) ON DELETE CASCADE,
  session_id   uuid,
  card_id      integer REFERENCES cards (id) ON DELETE SET NULL,
  confidence   real NOT NULL,
  verdict      text NOT NULL,
  result       jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recognitions_of_user ON recognitions (user_id, id);

-- What the user said the card is: the training signal a wrong suggestion leaves behind.
CREATE TABLE recognition_confirmations (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recognition_id      bigint REFERENCES recognitions (id) ON DELETE SET NULL,
  user_id             integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_id             integer NOT NULL REFERENCES cards (id),
  suggested_card_id   integer REFERENCES cards (id) ON DELETE SET NULL,
  collection_entry_id integer REFERENCES collection_entries (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (recognition_id)
);
CREATE INDEX recognition_confirmations_of_user ON recognition_confirmations (user_id, id);

-- A desktop's scan session, linked to a phone by a one-time claim token (an HMAC of the id, so
-- nothing secret is stored and the QR code can be drawn again); the phone then holds a device token
-- (only its hash is kept) for uploads. States: open → claimed → completed, or expired when
-- expires_at passes first (expiry_noted: the `expired` event was written, once). `counted`: made
-- with an API key, so its recognitions count against the owner's daily quota.
CREATE TABLE scan_sessions (
  id                uuid PRIMARY KEY,
  user_id           integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  counted           boolean NOT NULL,
  device_token_hash bytea,
  expiry_noted      boolean NOT NULL DEFAULT false,
  claimed_at        timestamptz,
  last_seq          integer NOT NULL DEFAULT 0,
  completed_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL
);
CREATE INDEX scan_sessions_of_user ON scan_sessions (user_id, created_at DESC);

-- The session's events in order: what SSE replays after Last-Event-ID.
CREATE TABLE scan_session_events (
  session_id uuid NOT NULL REFERENCES scan_sessions (id) ON DELETE CASCADE,
  seq        integer NOT NULL,
  type       text NOT NULL,
  payload    jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, seq)
);

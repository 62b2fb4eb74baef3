-- Private messages between users, optionally about a listing; reports to moderators; blocks
-- (spec: "Private message", "Message list", POST /api/reports, POST /api/blocks/{user_id}).
CREATE TABLE messages (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sender_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  recipient_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  listing_id   integer REFERENCES listings (id) ON DELETE SET NULL,
  subject      text NOT NULL CHECK (length(subject) <= 200),
  body         text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
  created_at   timestamptz NOT NULL DEFAULT now(),
  read_at      timestamptz,
  CHECK (sender_id <> recipient_id)
);
CREATE INDEX messages_inbox ON messages (recipient_id, id DESC);
CREATE INDEX messages_sent ON messages (sender_id, id DESC);

-- A message as its sender and recipient read it.
CREATE VIEW message_records AS
SELECT m.id, m.sender_id, m.recipient_id, s.username AS from_username, r.username AS to_username, m.listing_id,
       m.subject, m.body,
       to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       to_char(m.read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS read_at
FROM messages m
JOIN users s ON s.id = m.sender_id
JOIN users r ON r.id = m.recipient_id;

-- A user blocks another: the blocked one cannot message, bid on or buy from the blocker.
CREATE TABLE user_blocks (
  blocker_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  blocked_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
CREATE INDEX user_blocks_blocked ON user_blocks (blocked_id);

-- What a user reported to the moderators, about a listing, a user or a message.
CREATE TABLE reports (
  id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reporter_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_type text NOT NULL CHECK (target_type IN ('listing', 'user', 'message')),
  target_id   integer NOT NULL,
  reason      text NOT NULL CHECK (reason IN ('counterfeit', 'misdescribed', 'spam', 'abuse', 'fraud', 'other')),
  details     text CHECK (length(details) <= 2000),
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'reviewed', 'dismissed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (reporter_id, target_type, target_id)
);

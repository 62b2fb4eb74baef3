-- Accounts, sessions and API keys. Secrets are never stored: passwords as scrypt hashes, session
-- tokens carry only a session id (HS256-signed), API keys as SHA-256 digests of a 256-bit secret.
CREATE TABLE users (
  id                  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username            text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9][a-z0-9_.-]{2,29}$' OR username ~ '^deleted-[0-9]+$'),
  email               text,
  password_hash       text,
  is_admin            boolean NOT NULL DEFAULT false,
  is_seller           boolean NOT NULL DEFAULT false,
  display_name        text,
  country             text CHECK (country IS NULL OR country ~ '^[A-Z]{2}$'),
  tier                text NOT NULL DEFAULT 'free',
  delete_requested_at timestamptz,
  deleted_at          timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now()
);
-- One live account per e-mail address, whatever its case.
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE sessions (
  id         uuid PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE api_keys (
  id           integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  prefix       text NOT NULL,
  key_hash     bytea NOT NULL UNIQUE,
  tier         text NOT NULL,
  is_active    boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  revoked_at   timestamptz,
  last_used_at timestamptz,
  calls_today  integer NOT NULL DEFAULT 0,
  calls_day    date
);
CREATE INDEX api_keys_user ON api_keys (user_id, id);

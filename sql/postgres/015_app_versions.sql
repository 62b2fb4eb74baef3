-- The mobile apps' release manifest (spec: GET /api/app/latest, POST /api/admin/app/version):
-- every published version per platform; the latest is the highest version, compared part by part.
CREATE TABLE app_versions (
  id                    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  platform              text NOT NULL CHECK (platform IN ('ios', 'android')),
  version               text NOT NULL CHECK (version ~ '^\d{1,6}\.\d{1,6}\.\d{1,6}$'),
  version_key           integer[] GENERATED ALWAYS AS (string_to_array(version, '.')::integer[]) STORED,
  min_supported_version text NOT NULL CHECK (min_supported_version ~ '^\d{1,6}\.\d{1,6}\.\d{1,6}$'),
  release_notes         text NOT NULL DEFAULT '',
  download_url          text,
  published_by          text NOT NULL,
  released_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (platform, version),
  CHECK (string_to_array(min_supported_version, '.')::integer[] <= string_to_array(version, '.')::integer[])
);
CREATE INDEX app_versions_latest ON app_versions (platform, version_key DESC);

CREATE VIEW app_version_records AS
SELECT platform, version, version_key, min_supported_version, release_notes, download_url,
       to_char(released_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS released_at
FROM app_versions;

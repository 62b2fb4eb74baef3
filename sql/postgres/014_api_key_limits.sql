-- Per-key limits an operator sets (PATCH /admin/api-keys/{key_id}); null: the key's tier decides.
ALTER TABLE api_keys
  ADD COLUMN daily_limit integer CHECK (daily_limit > 0),
  ADD COLUMN per_minute_limit integer CHECK (per_minute_limit > 0);

-- The same view with the two overrides appended (CREATE OR REPLACE keeps existing columns in order).
CREATE OR REPLACE VIEW api_key_records AS
SELECT id, user_id, name, prefix, tier,
       (is_active AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS is_active,
       CASE WHEN calls_day = (now() AT TIME ZONE 'UTC')::date THEN calls_today ELSE 0 END AS calls_today,
       to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_used_at,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires_at,
       daily_limit AS daily_limit_override,
       per_minute_limit AS per_minute_limit_override
FROM api_keys
WHERE revoked_at IS NULL;

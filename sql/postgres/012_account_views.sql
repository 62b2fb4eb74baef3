-- Accounts and API keys as the service presents them, written once for every query that reads
-- them: live accounts only (deleted ones never sign in, resolve keys or appear), timestamps as
-- ISO 8601 UTC text, and each key's effective state at the moment of reading.
CREATE VIEW live_accounts AS
SELECT id, username, email, is_admin, is_seller, tier,
       to_char(delete_requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS delete_requested_at,
       developer_enabled_at::text AS developer_enabled_at,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM users
WHERE deleted_at IS NULL;

-- Keys not revoked; is_active folds in expiry, calls_today is 0 on a new UTC day.
CREATE VIEW api_key_records AS
SELECT id, user_id, name, prefix, tier,
       (is_active AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS is_active,
       CASE WHEN calls_day = (now() AT TIME ZONE 'UTC')::date THEN calls_today ELSE 0 END AS calls_today,
       to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_used_at,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires_at
FROM api_keys
WHERE revoked_at IS NULL;

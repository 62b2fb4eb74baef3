-- An account's keys that are not revoked, oldest first.
SELECT id, name, prefix, tier, is_active, calls_today, last_used_at, created_at, expires_at,
       daily_limit_override, per_minute_limit_override
FROM api_key_records
WHERE user_id = $1
ORDER BY id

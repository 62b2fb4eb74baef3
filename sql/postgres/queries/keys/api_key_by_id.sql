-- One key as its owner sees it.
SELECT id, name, prefix, tier, is_active, calls_today, last_used_at, created_at, expires_at,
       daily_limit_override, per_minute_limit_override
FROM api_key_records
WHERE id = $1

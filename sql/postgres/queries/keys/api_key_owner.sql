-- The live key a digest names: active, not revoked, not expired, its account not deleted.
SELECT k.id AS key_id, k.tier AS key_tier, k.user_id, k.expires_at::text AS expires_at,
       k.daily_limit AS daily_limit_override, k.per_minute_limit AS per_minute_limit_override
FROM api_keys k JOIN users u ON u.id = k.user_id
WHERE k.key_hash = $1 AND k.is_active AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now()) AND u.deleted_at IS NULL

-- Records that an account accepted the API terms (the first time counts); idempotent.
UPDATE users SET developer_enabled_at = coalesce(developer_enabled_at, now()) WHERE id = $1

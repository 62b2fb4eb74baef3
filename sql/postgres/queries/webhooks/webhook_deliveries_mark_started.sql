-- Records that the deliveries' workflows were started (the first time counts).
UPDATE webhook_deliveries SET started_at = coalesce(started_at, now()) WHERE id = ANY ($1::bigint[])

-- Active endpoints of Business-tier accounts (tiers $3) that take the event type $1, among the accounts $2.
SELECT e.id, e.user_id
FROM webhook_endpoints e JOIN users u ON u.id = e.user_id
WHERE e.is_active AND $1 = ANY (e.events) AND e.user_id = ANY ($2::int[]) AND u.tier = ANY ($3::text[]) AND u.deleted_at IS NULL

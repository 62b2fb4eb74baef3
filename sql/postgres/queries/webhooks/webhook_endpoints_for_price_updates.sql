-- Active price.updated endpoints of Business-tier accounts (tiers $2) watching any of the cards $1, with the cards they watch among them.
SELECT e.id, array(SELECT unnest(e.card_ids) INTERSECT SELECT unnest($1::int[])) AS cards
FROM webhook_endpoints e JOIN users u ON u.id = e.user_id
WHERE e.is_active AND 'price.updated' = ANY (e.events) AND e.card_ids && $1::int[] AND u.tier = ANY ($2::text[]) AND u.deleted_at IS NULL

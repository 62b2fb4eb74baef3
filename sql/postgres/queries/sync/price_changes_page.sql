-- A page of the price-changes feed: latest values changed after $1 (when given), past the cursor
-- ($2 transaction, $3 sequence), optionally of one game ($4), in feed order. Rows of transactions
-- running at the horizon $6 (feed_horizon.sql) are left for a later page (035_sync_and_external_ids.sql).
SELECT l.change_xid::text AS xid, l.change_seq::text AS seq, p.card_id, l.variant_id, l.region, l.source, l.price_type,
       l.grading_company, l.grade, l.currency, l.amount::float8 AS amount, l.as_of::text AS as_of,
       to_char(l.changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS changed_at
FROM variant_prices_latest l
JOIN variants v ON v.id = l.variant_id
JOIN printings p ON p.id = v.printing_id
WHERE l.change_xid < $6::xid8
  AND ($1::timestamptz IS NULL OR l.changed_at > $1::timestamptz)
  AND (l.change_xid, l.change_seq) > ($2::xid8, $3::bigint)
  AND ($4::text IS NULL OR p.card_id IN (SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug = $4))
ORDER BY l.change_xid, l.change_seq
LIMIT $5

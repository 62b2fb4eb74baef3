-- A page of the external id change log: changes after $1 (when given), past the cursor ($2
-- transaction, $3 id), optionally of one kind ($4), in feed order; rows of transactions running at
-- the horizon $6 (feed_horizon.sql) are left for a later page (035_sync_and_external_ids.sql).
SELECT change_xid::text AS xid, id::text AS seq, id::int AS id, card_id, variant_id, id_kind AS kind, before, after, reason,
       to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS changed_at
FROM external_id_changes
WHERE change_xid < $6::xid8
  AND ($1::timestamptz IS NULL OR changed_at > $1::timestamptz)
  AND (change_xid, id) > ($2::xid8, $3::bigint)
  AND ($4::text IS NULL OR id_kind = $4)
ORDER BY change_xid, id
LIMIT $5

-- The change feeds' horizon: every transaction below it has finished, and any change committed
-- later has a transaction id at or above it. A page reads up to it and, when complete, hands it
-- out as the next cursor.
SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xid

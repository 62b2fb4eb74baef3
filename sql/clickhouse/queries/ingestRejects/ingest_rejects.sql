-- Quarantined feed rows for operators, newest first; empty filters match everything.
SELECT batch_id, source, game, ref, reason, toString(rejected_at) AS rejected_at
FROM holo.ingest_rejects FINAL
WHERE (empty({batch_id:String}) OR batch_id = {batch_id:String})
  AND (empty({source:String}) OR source = {source:String})
ORDER BY rejected_at DESC, batch_id, ref
LIMIT {limit:UInt32}

-- How many feed rows were quarantined for each reason, over the same filters as ingest_rejects.sql.
SELECT source, reason, count() AS rows
FROM holo.ingest_rejects FINAL
WHERE (empty({batch_id:String}) OR batch_id = {batch_id:String})
  AND (empty({source:String}) OR source = {source:String})
GROUP BY source, reason
ORDER BY rows DESC, source, reason
LIMIT 100

-- Cross-source outlier flags per feed and day (the batch's day) over the last {days} days: a wrong
-- product mapping at one source shows as a jump in its daily count.
SELECT toString(batch_day) AS day, source, count() AS flagged
FROM
(
  SELECT source, ifNull(toDateOrNull(substring(splitByChar('/', batch_id)[3], 1, 10)), toDate(rejected_at)) AS batch_day
  FROM holo.ingest_rejects FINAL
  WHERE startsWith(reason, 'cross-source outlier') AND (empty({source:String}) OR source = {source:String})
)
WHERE batch_day > today() - {days:UInt32}
GROUP BY batch_day, source
ORDER BY batch_day, source

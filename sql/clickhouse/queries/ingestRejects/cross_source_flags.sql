-- Cross-source outlier flags per day (the batch's day), feed and price source over the last
-- {days} days: a wrong product mapping at one source shows as a jump in its daily count. The price
-- source is the second word of the flag's ref ("variant:<id> <source> <price type> ...").
SELECT toString(batch_day) AS day, feed, price_source AS source, count() AS flagged
FROM
(
  SELECT source AS feed, splitByChar(' ', ref)[2] AS price_source,
         ifNull(toDateOrNull(substring(splitByChar('/', batch_id)[3], 1, 10)), toDate(rejected_at)) AS batch_day
  FROM holo.ingest_rejects FINAL
  WHERE startsWith(reason, 'cross-source outlier')
)
WHERE batch_day > today() - {days:UInt32} AND (empty({source:String}) OR price_source = {source:String})
GROUP BY batch_day, feed, price_source
ORDER BY batch_day, feed, price_source

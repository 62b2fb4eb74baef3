-- For one region and price type of holo.market_daily: the newest day, and the newest *complete* day:
-- one on which every source that reported the day before has reported too, or that ended more
-- than 6 hours ago (a source that is late or gone does not hold the market back for longer).
-- Market questions (movers, overview, trending) read the complete day, so a morning on which one
-- of three scheduled sources has landed is never taken for the market. Only the last two days can
-- be incomplete (a day is complete 30 h after it began), so the four days up to the region and
-- price type's own newest day (within 14 days of any) are read (parameters: a range of the
-- table's sort key). Use
-- SELECT complete_day FROM holo.market_days(region = 'us', price_type = 'market').
CREATE VIEW IF NOT EXISTS holo.market_days {{ON_CLUSTER}} AS
WITH
  (SELECT max(max_date) FROM system.parts WHERE database = 'holo' AND table = 'market_daily' AND active) AS newest_any,
  (SELECT max(day) FROM holo.market_daily
   WHERE region = {region:String} AND price_type = {price_type:String} AND day >= newest_any - 14 AND day <= newest_any) AS newest_own,
  per_day AS (
    SELECT region, price_type, day, groupUniqArray(source) AS sources
    FROM holo.market_daily
    WHERE region = {region:String} AND price_type = {price_type:String} AND day >= newest_own - 3 AND day <= newest_own
    GROUP BY region, price_type, day
  )
SELECT region, price_type, max(day) AS newest_day,
       maxIf(day, hasAll(sources, previous) OR now() >= toDateTime(day + 1, 'UTC') + toIntervalHour(6)) AS complete_day
FROM (
  SELECT region, price_type, day, sources,
         lagInFrame(sources, 1, sources) OVER (PARTITION BY region, price_type ORDER BY day ASC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS previous
  FROM per_day
)
GROUP BY region, price_type;

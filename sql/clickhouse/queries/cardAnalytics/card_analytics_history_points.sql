-- history_points.sql (each region) and history_points_global.sql for each variant of a batch of
-- cards since {since}, from one read of price_points: two lines per card for PostgreSQL's COPY
-- (card_analytics_copy.sql), their answers as JSON text {"<variant>": [[key…, first day, [days
-- after the previous day], [amount, …]], …]}, one run a series in key order (sql/cardAnalytics.ts
-- decodes them). history_points' key is region, source and price type, its amount the daily median
-- in the region's currency; history_points_global's is source, price type and region, its amount
-- converted to USD as the global history converts it (days without a usable rate left out). Amounts
-- are numbers (the per-card queries send them as text, which the service reads as numbers). A day's
-- row does not depend on the window's start (the rates look a fortnight further back than any
-- window's first day), so a shorter window's answer is these rows from its start on.
WITH
  points AS (
    SELECT p.card_id AS card_id, p.variant_id AS variant_id, p.region AS region, p.source AS source, p.price_type AS price_type, p.as_of AS day, any(p.currency) AS currency, medianExact(p.amount) AS median
    FROM holo.price_points AS p FINAL
    -- Sorting-key conditions before FINAL (every version of a row shares them); is_outlier after it.
    PREWHERE p.card_id IN {card_ids:Array(UInt32)} AND p.grading_company = 'raw' AND p.as_of >= {since:Date}
    WHERE NOT p.is_outlier
    GROUP BY p.card_id, p.variant_id, p.region, p.source, p.price_type, p.as_of
  ),
  rates AS (
    SELECT currency, day, toFloat64(argMax(rate, ingested_at)) AS rate
    FROM holo.fx_rates
    WHERE day >= {since:Date} - 14
    GROUP BY currency, day
  ),
  -- Each currency's rates on each of {days} days from {since}, as history_points_global.sql takes
  -- them (usable: it converts that day): ASOF joins over the currencies' days, not over every point.
  factors AS (
    SELECT c.currency AS currency, c.day AS day, usd.rate AS usd_rate, if(c.currency = 'EUR', 1, cur.rate) AS divisor,
           c.currency = 'USD' OR (usd.rate > 0 AND (c.currency = 'EUR' OR cur.rate > 0)) AS usable
    FROM (
      SELECT currency, {since:Date} + number AS day, 'USD' AS usd
      FROM (SELECT DISTINCT currency FROM rates UNION DISTINCT SELECT arrayJoin(['USD', 'EUR'])) AS currencies CROSS JOIN numbers({days:UInt32}) AS offsets
    ) AS c
    ASOF LEFT JOIN rates AS usd ON c.usd = usd.currency AND c.day >= usd.day
    ASOF LEFT JOIN rates AS cur ON c.currency = cur.currency AND c.day >= cur.day
  ),
  runs AS (
    SELECT card_id, variant_id, region, source, price_type,
           arraySort(groupArray((day, toFloat64(median)))) AS regional,
           arraySort(groupArrayIf((day, round(if(currency = 'USD', toFloat64(median), toFloat64(median) * usd_rate / divisor), 4)), usable)) AS global
    FROM points
    LEFT JOIN factors USING (currency, day)
    GROUP BY card_id, variant_id, region, source, price_type
  ),
  variants AS (
    SELECT card_id, variant_id,
           arraySort(groupArray((toString(region), toString(source), toString(price_type), toString(regional[1].1),
                                 arrayDifference(arrayMap(p -> toUInt16(p.1), regional)), arrayMap(p -> p.2, regional)))) AS regional_runs,
           arraySort(groupArrayIf((toString(source), toString(price_type), toString(region), toString(global[1].1),
                                   arrayDifference(arrayMap(p -> toUInt16(p.1), global)), arrayMap(p -> p.2, global)), notEmpty(global))) AS global_runs
    FROM runs
    GROUP BY card_id, variant_id
  )
SELECT card_id, query, {generation:UInt64} AS generation, answers
FROM (
  SELECT card_id,
         toJSONString(mapFromArrays(groupArray(toString(variant_id)), groupArray(regional_runs))) AS regional,
         toJSONString(mapFromArrays(groupArray(toString(variant_id)), groupArray(global_runs))) AS global
  FROM variants
  GROUP BY card_id
)
ARRAY JOIN ['history_points', 'history_points_global'] AS query, [regional, global] AS answers

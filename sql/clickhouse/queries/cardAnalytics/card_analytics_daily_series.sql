-- legacy_price_history.sql (ungraded, every source) and pi_card_series.sql (every source) for each
-- variant of a batch of cards (holo.card_analytics_batch, filled by batch_fill.sql) since {since},
-- from one grouping of the batch's ungraded rows by source and day: two lines per card, ready for
-- PostgreSQL's COPY (card_analytics_copy.sql), their answers as JSON text
-- {"<variant>": [[source, first day, [days after the previous day], [price, …]], …]}, one run a
-- source in source order (sql/cardAnalytics.ts decodes them): legacy_price_history's price the day's
-- median in USD, pi_card_series' in euros at the day's reference rate (days without one left out).
-- A day's row does not depend on the window, so any window inside this one is these rows between
-- its days.
WITH
  daily AS (
    SELECT card_id, variant_id, toString(source) AS source, day,
           round(quantileExactInclusiveIf(0.5)(price_usd, grade = ''), 4) AS market_price, countIf(grade = '') > 0 AS ungraded,
           quantileExactInclusive(0.5)(price_usd) AS usd
    FROM holo.card_analytics_batch
    WHERE grading_company = 'raw' AND day >= {since:Date}
    GROUP BY card_id, variant_id, source, day
  ),
  -- The euro's rate of each day with prices (the last one published on or before it): one ASOF
  -- join over the days, not over every row.
  eur AS (
    SELECT d.day AS day, fx.usd_per_unit AS usd_per_unit
    FROM (SELECT DISTINCT day, 'EUR' AS eur FROM daily) AS d
    ASOF INNER JOIN holo.fx_to_usd AS fx ON d.eur = fx.currency AND d.day >= fx.day
  ),
  runs AS (
    SELECT card_id, variant_id, source,
           arraySort(groupArrayIf((day, market_price), ungraded)) AS history,
           arraySort(groupArrayIf((day, round(usd / eur.usd_per_unit, 2)), eur.usd_per_unit != 0)) AS euros
    FROM daily
    LEFT JOIN eur USING (day)
    GROUP BY card_id, variant_id, source
  ),
  variants AS (
    SELECT card_id, variant_id,
           arraySort(groupArrayIf((source, toString(history[1].1), arrayDifference(arrayMap(p -> toUInt16(p.1), history)), arrayMap(p -> p.2, history)),
                                  notEmpty(history))) AS history_runs,
           arraySort(groupArrayIf((source, toString(euros[1].1), arrayDifference(arrayMap(p -> toUInt16(p.1), euros)), arrayMap(p -> p.2, euros)),
                                  notEmpty(euros))) AS euro_runs
    FROM runs
    GROUP BY card_id, variant_id
  )
SELECT card_id, query, {generation:UInt64} AS generation, answers
FROM (
  SELECT card_id,
         toJSONString(mapFromArrays(groupArray(toString(variant_id)), groupArray(history_runs))) AS history,
         toJSONString(mapFromArrays(groupArray(toString(variant_id)), groupArray(euro_runs))) AS euros
  FROM variants
  GROUP BY card_id
)
ARRAY JOIN ['legacy_price_history', 'pi_card_series'] AS query, [history, euros] AS answers

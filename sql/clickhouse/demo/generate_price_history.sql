-- Deterministic multi-source price history for the demo catalogue, generated inside ClickHouse
-- (no rows cross into Node). Every value is a pure function of (variant, series, day), so a rerun
-- writes identical rows; the caller runs it on one thread with a deduplication token
-- (ingest/demo/priceHistory.ts), so a rerun's blocks are dropped at insert.
-- Model per variant: log price = ln(base) + yearly drift + two seasonal waves + an occasional spike;
-- each source adds its own bias and daily noise; lagged price types (avg7, avg30) read the model
-- a few days back, like the moving averages they stand for. About 1 in 1500 points is an outlier
-- (x7 or /7), loaded with is_outlier = 1. Points are daily for the last 90 days and weekly before,
-- the way price guides thin out their history; it keeps a first start of the full demo to minutes.
INSERT INTO holo.price_points
  (card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of, observation_id, ingested_at, is_outlier, batch_id)
SELECT
  card_id, variant_id, game, region, source, price_type, grading_company, grade, currency,
  -- via text: a Float64 cast straight to Decimal truncates 49.16 to 49.1599
  toDecimal64(toString(greatest(0.02, round(model * factor * bias * noise * outlier_mult, currency = 'JPY' ? 0 : 2))), 4) AS amount,
  as_of, '' AS observation_id, {ingested_at:DateTime64(3)} AS ingested_at, outlier_mult != 1 AS is_outlier, {batch_id:String} AS batch_id
FROM
(
  SELECT
    v.card_id AS card_id, v.variant_id AS variant_id, v.game AS game,
    s.1 AS region, s.2 AS source, s.3 AS price_type, s.4 AS grading_company, s.5 AS grade, s.6 AS currency,
    s.7 AS factor, s.8 AS lag, s.9 AS kind,
    toUInt32(n.number) AS d,
    {end_date:Date} - ({days:UInt32} - 1 - d) AS as_of,
    (d - lag) AS t,
    -- uniform draws in [0, 1) derived from stable hashes
    (cityHash64(v.variant_id, 'drift') % 10000) / 10000 AS u_drift,
    (cityHash64(v.variant_id, 'wave') % 10000) / 10000 AS u_wave,
    (cityHash64(v.variant_id, 'spike') % 10000) / 10000 AS u_spike,
    (cityHash64(v.variant_id, s.2, 'bias') % 10000) / 10000 AS u_bias,
    (cityHash64(v.variant_id, s.2, s.3, s.4, s.5, d) % 10000) / 10000 AS u_noise,
    cityHash64(v.variant_id, s.2, s.3, s.4, s.5, d, 'outlier') % 1500 AS u_outlier,
    v.base_usd * exp(
        (u_drift - 0.4) * 0.9 * t / 365
      + (0.03 + 0.12 * u_wave) * sin(2 * pi() * t / (40 + 160 * u_wave) + 6.28 * u_drift)
      + 0.03 * sin(2 * pi() * t / 9)
      + if(u_spike < 0.06, 0.6 * exp(-pow((t - (30 + u_spike * 4000) % {days:UInt32}) / 6, 2)), 0)
    ) AS model,
    1 + (u_bias - 0.5) * 0.16 AS bias,
    1 + (u_noise - 0.5) * if(kind = 'sold', 0.25, 0.06) AS noise,
    multiIf(u_outlier = 0, 7.0, u_outlier = 1, 1 / 7, 1.0) AS outlier_mult
  FROM holo.demo_variants AS v
  CROSS JOIN numbers({days:UInt32}) AS n
  ARRAY JOIN [
    ('eu', 'eu_market', 'trend', 'raw', '', 'EUR', 0.93, 0, 'raw'),
    ('eu', 'eu_market', 'avg', 'raw', '', 'EUR', 0.95, 0, 'raw'),
    ('eu', 'eu_market', 'low', 'raw', '', 'EUR', 0.74, 0, 'raw'),
    ('eu', 'eu_market', 'avg1', 'raw', '', 'EUR', 0.94, 0, 'raw'),
    ('eu', 'eu_market', 'avg7', 'raw', '', 'EUR', 0.93, 3, 'raw'),
    ('eu', 'eu_market', 'avg30', 'raw', '', 'EUR', 0.93, 15, 'raw'),
    ('us', 'us_market', 'market', 'raw', '', 'USD', 1.0, 0, 'raw'),
    ('us', 'us_market', 'low', 'raw', '', 'USD', 0.82, 0, 'raw'),
    ('us', 'us_market', 'mid', 'raw', '', 'USD', 1.06, 0, 'raw'),
    ('us', 'us_market', 'high', 'raw', '', 'USD', 1.7, 0, 'raw'),
    ('us', 'us_market', 'direct_low', 'raw', '', 'USD', 0.95, 0, 'raw'),
    ('us', 'auction_sold', 'last_sold', 'raw', '', 'USD', 0.98, 0, 'sold'),
    ('us', 'graded_guide', '', 'psa', '10', 'USD', 6.5, 0, 'graded'),
    ('us', 'graded_guide', '', 'psa', '9', 'USD', 2.3, 0, 'graded'),
    ('us', 'graded_guide', '', 'bgs', '10', 'USD', 9.0, 0, 'graded'),
    ('us', 'graded_guide', '', 'bgs', '9.5', 'USD', 4.2, 0, 'graded'),
    ('us', 'graded_guide', '', 'cgc', '10', 'USD', 4.6, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', '7', 'USD', 0.9, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', '8', 'USD', 1.2, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', '9', 'USD', 1.8, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', '9.5', 'USD', 2.8, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', 'pc17', 'USD', 3.3, 0, 'graded'),
    ('us', 'graded_guide', '', 'other', 'pc18', 'USD', 4.0, 0, 'graded'),
    ('jp', 'jp_market', 'raw_jp', 'raw', '', 'JPY', 148.0, 0, 'jp')
  ] AS s
  WHERE (kind != 'graded' OR v.graded)
    AND (kind != 'jp' OR v.jp)
    AND (kind != 'sold' OR cityHash64(v.variant_id, d, 'sold') % 3 = 0)
    AND (d + 90 >= {days:UInt32} OR ({days:UInt32} - 1 - d) % 7 = 0)
)

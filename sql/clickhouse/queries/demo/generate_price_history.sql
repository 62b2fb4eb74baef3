-- The demo price model's history of the staged series (holo.demo_series), generated inside
-- ClickHouse (no rows cross into Node). It evaluates exactly what ingest/demoMarket/priceModel.ts
-- quoteCents evaluates for the live feed server, operation for operation, so a backfilled day and
-- a live day of a series agree to the cent (tested): the day's draw is lowbias32 of
-- seed xor day·0x9e3779b1 in 32-bit arithmetic (h0..h), then
--   price = scale · exp(movement(day − lag)) · (1 + (u − ½) · noise_width) · outlier.
-- Auction series have a sale on the days whose draw ends in binary 00, with the listing's item id
-- as observation. Planted outliers (2 in 1500 draws) load with is_outlier = 1. Points are daily for
-- the last 90 days and weekly before, the way price guides thin out their history. The caller runs
-- it on one thread with a deduplication token (ingest/demo/priceHistory.ts): a rerun inserts nothing.
INSERT INTO holo.price_points
  (card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of, observation_id, ingested_at, is_outlier, batch_id)
SELECT
  card_id, variant_id, game, region, source, price_type, grading_company, grade, currency,
  toDecimal64(greatest(2, cents), 4) / 100 AS amount,
  as_of, if(auction, toString(toUInt64(seed) * 100000 + day), '') AS observation_id,
  {ingested_at:DateTime64(3)} AS ingested_at, o < 2 AS is_outlier, {batch_id:String} AS batch_id
FROM
(
  SELECT
    s.card_id AS card_id, s.variant_id AS variant_id, s.game AS game, s.region AS region, s.source AS source,
    s.price_type AS price_type, s.grading_company AS grading_company, s.grade AS grade, s.currency AS currency,
    s.auction AS auction, s.seed AS seed,
    {end_date:Date} - n.number AS as_of,
    toUInt32(as_of) AS day,
    toInt64(day) - s.lag - {epoch:UInt32} AS x,
    bitXor(toUInt64(s.seed), bitAnd(toUInt64(day) * 2654435761, 4294967295)) AS h0,
    bitXor(h0, bitShiftRight(h0, 16)) AS h1,
    bitAnd(h1 * 2146121005, 4294967295) AS h2,
    bitXor(h2, bitShiftRight(h2, 15)) AS h3,
    bitAnd(h3 * 2221713035, 4294967295) AS h4,
    bitXor(h4, bitShiftRight(h4, 16)) AS h,
    h / 4294967296 AS u,
    bitShiftRight(h, 2) % 1500 AS o,
    multiIf(o = 0, 7., o = 1, 1 / 7, 1.) AS outlier,
    (x - s.spike_day) / 6 AS zs,
    s.drift * x / 365
      + s.wave_amp * sin(2 * pi() * x / s.wave_period + s.wave_phase)
      + 0.03 * sin(2 * pi() * x / 9)
      + s.spike_height * exp(-(zs * zs))
      - s.crash_depth * least(1., greatest(0., (x - s.crash_day) / 5)) AS movement,
    floor(s.scale * exp(movement) * (1 + (u - 0.5) * s.noise_width) * outlier * 100 + 0.5) AS cents
  FROM holo.demo_series AS s
  CROSS JOIN numbers({days:UInt32}) AS n
  WHERE (n.number < 90 OR n.number % 7 = 0)
)
WHERE NOT auction OR bitAnd(h, 3) = 0

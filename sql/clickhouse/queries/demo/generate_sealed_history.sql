-- Deterministic daily history for the demo's sealed products, anchored on the real guide value of
-- today (base_eur, from the Cardmarket export): today's EU trend is exactly that value; earlier
-- days sit below it on a climb of 0-25 % a year (print runs dry up), with a wave and 2.5 % noise.
-- EU trend/avg/low in EUR, a US market quote in USD.
INSERT INTO holo.sealed_price_points (product_id, game, region, source, price_type, currency, amount, as_of, ingested_at, is_outlier, batch_id)
SELECT product_id, game, s.1 AS region, s.2 AS source, s.3 AS price_type, s.4 AS currency,
       toDecimal64(toString(greatest(0.5, round(model * s.5 * if(age = 0, 1, 1 + ((cityHash64(product_id, s.3, d) % 10000) / 10000 - 0.5) * 0.05), 2))), 4) AS amount,
       {end_date:Date} - age AS as_of, {ingested_at:DateTime64(3)} AS ingested_at, false AS is_outlier, {batch_id:String} AS batch_id
FROM
(
  SELECT p.product_id AS product_id, p.game AS game, toUInt32(n.number) AS d, {days:UInt32} - 1 - d AS age,
         30 + (cityHash64(p.product_id, 'wave') % 60) AS period,
         p.base_eur * exp(-(cityHash64(p.product_id, 'climb') % 10000) / 10000 * 0.25 * age / 365
                          + 0.04 * (sin(2 * pi() * d / period) - sin(2 * pi() * ({days:UInt32} - 1) / period))) AS model
  FROM holo.demo_sealed AS p
  CROSS JOIN numbers({days:UInt32}) AS n
)
ARRAY JOIN [
  ('eu', 'eu_market', 'trend', 'EUR', 1.0),
  ('eu', 'eu_market', 'avg', 'EUR', 1.03),
  ('eu', 'eu_market', 'low', 'EUR', 0.85),
  ('us', 'us_market', 'market', 'USD', 1.12)
] AS s

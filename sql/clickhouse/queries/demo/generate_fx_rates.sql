-- Deterministic daily euro reference rates for the demo range: smooth drift around a level
-- taken from the real ECB sample, every calendar day (weekends carry the week's rate).
INSERT INTO holo.fx_rates (day, currency, rate, source, ingested_at)
SELECT
  {end_date:Date} - ({days:UInt32} - 1 - n.number) AS day,
  c.1 AS currency,
  toDecimal64(c.2 * (1 + 0.04 * sin(2 * pi() * toUInt32(toMonday(day)) / 190 + c.3) + 0.01 * sin(2 * pi() * toUInt32(toMonday(day)) / 37)), 6) AS rate,
  'demo' AS source,
  {ingested_at:DateTime64(3)} AS ingested_at
FROM numbers({days:UInt32}) AS n
ARRAY JOIN [('USD', 1.0856, 0.0), ('JPY', 162.5, 1.3), ('GBP', 0.8535, 2.1), ('CHF', 0.9521, 0.7)] AS c

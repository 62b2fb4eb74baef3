-- Built after the bulk load: one for market-wide questions by day, one for a card's history.
CREATE INDEX IF NOT EXISTS bench_pp_market ON bench.price_points (region, price_type, as_of) INCLUDE (card_id, variant_id, source, amount, grading_company, is_outlier, game);
CREATE INDEX IF NOT EXISTS bench_pp_card ON bench.price_points (card_id, variant_id, region, as_of);
ANALYZE bench.price_points;

-- Cards with a current best price (materialised after each load).
SELECT count(*)::int AS n FROM card_best_prices

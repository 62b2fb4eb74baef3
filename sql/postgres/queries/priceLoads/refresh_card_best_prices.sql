-- Recomputes card_best_prices for the cards in $1 (every card when $1 is NULL) from
-- variant_prices_latest: of the primary variant's ungraded US `market` prices, the lowest of the
-- newest day (a source that stopped reporting does not keep an old low). A card without any
-- such price keeps the last one it had.
WITH primary_variant AS (
  SELECT DISTINCT ON (p.card_id) p.card_id, v.id AS variant_id
  FROM printings p JOIN variants v ON v.printing_id = p.id
  WHERE $1::int[] IS NULL OR p.card_id = ANY ($1::int[])
  ORDER BY p.card_id, (p.print_run <> 'unlimited'), (v.finish = 'reverse-holofoil'), v.id
),
best AS (
  SELECT DISTINCT ON (pv.card_id) pv.card_id, pv.variant_id, l.amount AS best_price, l.as_of
  FROM primary_variant pv
  JOIN variant_prices_latest l ON l.variant_id = pv.variant_id
  WHERE l.region = 'us' AND l.price_type = 'market' AND l.grading_company = 'raw' AND l.currency = 'USD'
  ORDER BY pv.card_id, l.as_of DESC, l.amount
)
INSERT INTO card_best_prices (card_id, variant_id, best_price, currency, as_of)
SELECT card_id, variant_id, best_price, 'USD', as_of FROM best
ON CONFLICT (card_id) DO UPDATE
  SET variant_id = EXCLUDED.variant_id, best_price = EXCLUDED.best_price, as_of = EXCLUDED.as_of
  WHERE (card_best_prices.best_price, card_best_prices.as_of, card_best_prices.variant_id)
        IS DISTINCT FROM (EXCLUDED.best_price, EXCLUDED.as_of, EXCLUDED.variant_id)

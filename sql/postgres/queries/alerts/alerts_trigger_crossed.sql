-- Triggers the armed alerts the new prices cross ($1 cards, $2 prices, $3 currencies): at or below
-- the target for 'below', at or above it for 'above'. The UPDATE ... WHERE triggered_at IS NULL decides,
-- so concurrent runs cannot trigger one alert twice. Returns each with its owner and the crossing price.
WITH prices AS (
  SELECT DISTINCT ON (card_id, currency) card_id, price, currency
  FROM unnest($1::int[], $2::numeric[], $3::text[]) AS u (card_id, price, currency)
), crossed AS (
  UPDATE price_alerts a SET triggered_at = now(), triggered_price = p.price
  FROM prices p
  WHERE a.card_id = p.card_id AND a.currency = p.currency AND a.is_active AND a.triggered_at IS NULL
    AND ((a.condition = 'below' AND p.price <= a.target_price) OR (a.condition = 'above' AND p.price >= a.target_price))
  RETURNING a.*
)
SELECT a.id, a.card_id, c.name AS card_name, a.target_price::float8 AS target_price, a.condition, a.currency, a.is_active,
       to_char(a.triggered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS triggered_at,
       to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
       a.user_id, u.username, u.email, u.email_alerts, a.triggered_price::float8 AS market_price
FROM crossed a JOIN cards c ON c.id = a.card_id JOIN users u ON u.id = a.user_id
ORDER BY a.id

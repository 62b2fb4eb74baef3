-- The latest ungraded price of every source and variant of the given cards: market (US market,
-- EU trend, guide loose, JP raw or last auction sale, whichever the source reports), low and high.
SELECT p.card_id, l.source, v.finish, p.print_run, l.currency,
       max(l.amount) FILTER (WHERE l.price_type IN ('market', 'trend', 'raw_us', 'raw_jp', 'last_sold'))::float8 AS market_price,
       max(l.amount) FILTER (WHERE l.price_type = 'low')::float8 AS low_price,
       max(l.amount) FILTER (WHERE l.price_type = 'high')::float8 AS high_price,
       to_char(max(l.as_of), 'YYYY-MM-DD"T"00:00:00"Z"') AS recorded_at
FROM variant_prices_latest l
JOIN variants v ON v.id = l.variant_id
JOIN printings p ON p.id = v.printing_id
WHERE p.card_id = ANY ($1::int[]) AND l.grading_company = 'raw'
GROUP BY p.card_id, l.source, v.id, v.finish, p.print_run, l.currency
HAVING max(l.amount) FILTER (WHERE l.price_type IN ('market', 'trend', 'raw_us', 'raw_jp', 'last_sold')) IS NOT NULL
ORDER BY p.card_id, v.id, l.source

-- What completing a set takes: its cards by rarity with their reference value (USD). $1 set id.
SELECT s.id AS set_id, coalesce(s.printed_total, s.total_cards)::int AS printed_total,
       c.rarity, count(c.id)::int AS cards, count(b.card_id)::int AS priced,
       coalesce(sum(b.best_price), 0)::float8 AS value,
       count(c.id) FILTER (WHERE s.printed_total IS NOT NULL
                           AND NULLIF(substring(c.collector_number FROM '^\d+$'), '')::int > s.printed_total)::int AS secret
FROM sets s
LEFT JOIN cards c ON c.set_id = s.id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE s.id = $1
GROUP BY s.id, c.rarity
ORDER BY value DESC, c.rarity NULLS LAST

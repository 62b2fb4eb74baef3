-- Price statistics of one set over its cards' reference prices (USD). $1 set id.
SELECT s.id AS set_id,
       (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS card_count,
       count(b.card_id)::int AS priced_cards,
       min(b.best_price)::float8 AS min_price,
       max(b.best_price)::float8 AS max_price,
       round(avg(b.best_price), 4)::float8 AS avg_price,
       coalesce(sum(b.best_price), 0)::float8 AS total_value
FROM sets s
LEFT JOIN cards c ON c.set_id = s.id
LEFT JOIN card_best_prices b ON b.card_id = c.id
WHERE s.id = $1
GROUP BY s.id

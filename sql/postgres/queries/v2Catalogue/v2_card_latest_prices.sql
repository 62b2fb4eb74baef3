-- The materialised latest price of every series of a card's variants; amounts as exact text.
SELECT l.variant_id, l.region, l.source, l.price_type, l.grading_company, l.grade, l.currency, l.amount::text AS amount, l.as_of::text AS as_of
FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
WHERE p.card_id = $1
ORDER BY l.region, l.source, l.price_type, l.grading_company, l.grade

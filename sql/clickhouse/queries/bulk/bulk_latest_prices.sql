-- The latest non-outlier price of every series, as the bulk export writes it.
SELECT card_id, variant_id, game, region, source, price_type, grading_company, grade,
       argMax(currency, p.as_of) AS currency, argMax(amount, p.as_of) AS amount, max(p.as_of) AS as_of
FROM holo.price_latest AS p
GROUP BY card_id, variant_id, game, region, source, price_type, grading_company, grade
ORDER BY card_id, variant_id, region, source, price_type, grading_company, grade

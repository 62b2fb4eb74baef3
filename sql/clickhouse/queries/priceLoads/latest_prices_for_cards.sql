-- Latest non-outlier value of every series of the given cards (all cards when the list is empty).
SELECT variant_id, region, source, price_type, grading_company, grade,
       argMax(p.currency, p.as_of) AS currency,
       toString(argMax(p.amount, p.as_of)) AS amount,
       toString(max(p.as_of)) AS as_of
FROM holo.price_latest AS p
WHERE (empty({card_ids:Array(UInt32)}) OR card_id IN {card_ids:Array(UInt32)})
GROUP BY variant_id, region, source, price_type, grading_company, grade

-- Whether any sealed product is catalogued.
SELECT 1 AS present FROM sealed_products LIMIT 1

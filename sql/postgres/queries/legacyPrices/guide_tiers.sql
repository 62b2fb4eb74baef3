-- The graded guide's current loose (ungraded), cib (grade 7) and new (grade 8) prices of the
-- given variants, USD: the tiers of the buy/sell spread.
SELECT max(amount) FILTER (WHERE grading_company = 'raw' AND price_type = 'raw_us')::float8 AS loose,
       max(amount) FILTER (WHERE grading_company = 'other' AND grade = '7')::float8 AS cib,
       max(amount) FILTER (WHERE grading_company = 'other' AND grade = '8')::float8 AS new
FROM variant_prices_latest
WHERE variant_id = ANY ($1::int[]) AND source IN ('pricecharting', 'graded_guide') AND currency = 'USD'

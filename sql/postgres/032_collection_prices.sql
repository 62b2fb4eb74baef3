-- What the collection values its cards at, in one place for every query that does (entries, the
-- summary, the analytics): the newest lowest US price in USD of the given variants, ungraded market
-- and graded by company and grade. Functions over an array of variant ids, not views: a view joined
-- to a collection's variants would be read whole before the join; the ids restrict the index read.
CREATE FUNCTION collection_raw_prices(variant_ids integer[])
RETURNS TABLE (variant_id integer, amount numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT DISTINCT ON (l.variant_id) l.variant_id, l.amount
  FROM variant_prices_latest l
  WHERE l.variant_id = ANY (variant_ids)
    AND l.region = 'us' AND l.price_type = 'market' AND l.grading_company = 'raw' AND l.currency = 'USD'
  ORDER BY l.variant_id, l.as_of DESC, l.amount
$$;

CREATE FUNCTION collection_graded_prices(variant_ids integer[])
RETURNS TABLE (variant_id integer, grading_company text, grade text, amount numeric)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT DISTINCT ON (l.variant_id, l.grading_company, l.grade) l.variant_id, l.grading_company, l.grade, l.amount
  FROM variant_prices_latest l
  WHERE l.variant_id = ANY (variant_ids)
    AND l.region = 'us' AND l.currency = 'USD' AND l.grading_company <> 'raw'
  ORDER BY l.variant_id, l.grading_company, l.grade, l.as_of DESC, l.amount
$$;

-- What one card of an entry is worth in USD, to the cent: graded at its company's and grade's price
-- when there is one, else at the ungraded market price (near mint when graded, times the condition's
-- factor from `factors`, a jsonb map, when not). NULL without a price.
CREATE FUNCTION collection_unit_value(raw_price numeric, graded_price numeric, graded boolean, condition text, factors jsonb)
RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT round(coalesce(graded_price, raw_price * CASE WHEN graded THEN 1 ELSE (factors ->> condition)::numeric END), 2)
$$;

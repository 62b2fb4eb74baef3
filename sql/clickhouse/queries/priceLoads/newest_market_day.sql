-- The newest day any market price was loaded for (from part metadata: no scan); 1970-01-01 when
-- there is none. Where a start on a later day catches up from.
SELECT toString(max(max_date)) AS day FROM system.parts WHERE database = 'holo' AND table = 'market_daily' AND active

-- The games whose movers the precompute computes (besides every game at once).
SELECT slug FROM games ORDER BY slug

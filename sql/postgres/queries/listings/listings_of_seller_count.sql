-- How many listings a seller has, optionally in one state ($2).
SELECT count(*)::int AS n FROM listing_records WHERE seller_id = $1 AND ($2::text IS NULL OR status = $2)

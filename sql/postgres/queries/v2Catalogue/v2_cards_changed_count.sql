-- How many of set $1's cards changed after $2 (v2_cards_of_set.sql's filter).
SELECT count(*)::int AS n FROM cards c WHERE c.set_id = $1 AND c.updated_at > $2::timestamptz

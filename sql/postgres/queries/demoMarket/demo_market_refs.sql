-- A game's cross references of one kind: the upstream product ids the feed server quotes under.
SELECT r.ref_value, r.card_id, r.printing_id
FROM cross_refs r JOIN cards c ON c.id = r.card_id JOIN games g ON g.id = c.game_id
WHERE g.slug = $1 AND r.ref_key = $2
ORDER BY r.ref_value, r.card_id, r.printing_id

-- The distinct upstream product ids of one kind the catalogue's cards are known under in a game
-- (cross_refs): what a feed priced by product id asks its upstream for.
SELECT DISTINCT r.ref_value AS ref
FROM cross_refs r JOIN cards c ON c.id = r.card_id JOIN games g ON g.id = c.game_id
WHERE g.slug = $1 AND r.ref_key = $2
ORDER BY r.ref_value

-- Magic cards by Scryfall id with their finishes.
SELECT r.ref_value, c.rarity, array_agg(DISTINCT v.finish) AS finishes
FROM cross_refs r JOIN cards c ON c.id = r.card_id JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
WHERE r.ref_key = 'mtg_card_db_id'
GROUP BY r.ref_value, c.rarity
ORDER BY r.ref_value

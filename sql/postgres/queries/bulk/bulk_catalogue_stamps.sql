-- Per game with cards: the newest change of its catalogue (cards, sets, external ids) and its variants.
SELECT g.slug AS game,
       to_char(GREATEST(max(c.updated_at), max(s.updated_at),
                        (SELECT max(e.updated_at) FROM variant_external_ids e JOIN variants v ON v.id = e.variant_id
                         JOIN printings p ON p.id = v.printing_id JOIN cards c2 ON c2.id = p.card_id WHERE c2.game_id = g.id))
               AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') || '/' ||
       (SELECT count(*) FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c3 ON c3.id = p.card_id WHERE c3.game_id = g.id) AS stamp
FROM games g
JOIN cards c ON c.game_id = g.id
JOIN sets s ON s.id = c.set_id
GROUP BY g.id, g.slug
ORDER BY g.slug

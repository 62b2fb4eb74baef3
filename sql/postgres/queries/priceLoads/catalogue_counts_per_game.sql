-- Sets, cards, printings and variants per game (what a catalogue sync added is the difference).
SELECT g.slug AS game,
       (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets,
       (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
       (SELECT count(*) FROM printings p JOIN cards c ON c.id = p.card_id WHERE c.game_id = g.id)::int AS printings,
       (SELECT count(*) FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id WHERE c.game_id = g.id)::int AS variants
FROM games g
ORDER BY g.slug

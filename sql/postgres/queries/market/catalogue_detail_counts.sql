-- Catalogue counts per game, with how many cards carry a reference price.
SELECT g.slug AS tcg_slug,
       (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets,
       (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
       (SELECT count(*) FROM printings p JOIN cards c ON c.id = p.card_id WHERE c.game_id = g.id)::int AS printings,
       (SELECT count(*) FROM variants v JOIN printings p ON p.id = v.printing_id JOIN cards c ON c.id = p.card_id WHERE c.game_id = g.id)::int AS variants,
       (SELECT count(*) FROM card_best_prices b JOIN cards c ON c.id = b.card_id WHERE c.game_id = g.id)::int AS priced_cards
FROM games g
ORDER BY g.slug

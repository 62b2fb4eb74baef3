-- The catalogue's size: cards, sets, games with cards, variants, images.
SELECT (SELECT count(*) FROM cards)::int AS cards, (SELECT count(*) FROM sets)::int AS sets,
       (SELECT count(DISTINCT game_id) FROM cards)::int AS games, (SELECT count(*) FROM variants)::int AS variants,
       (SELECT count(*) FROM images)::int AS images

-- Cards named by (game slug, set name, collector number) hints, any case; i is the hint's 1-based position.
SELECT w.i, c.id AS card_id
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS w (game, set_name, number, i)
JOIN games g ON g.slug = w.game
JOIN sets s ON s.game_id = g.id AND lower(s.name) = lower(w.set_name)
JOIN cards c ON c.set_id = s.id AND lower(c.collector_number) = lower(w.number)

-- One set with its game and how many cards the catalogue holds of it.
SELECT s.id, s.code, s.name, s.series, s.release_date::text AS release_date, s.total_cards, s.is_promo, s.language,
       g.slug AS game_slug, g.name AS game_name,
       (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS cards_total
FROM sets s JOIN games g ON g.id = s.game_id
WHERE s.id = $1

-- Browsing 100,000 open listings within 30 ms (issue 15's goal): the game is kept on the listing
-- (a card never changes game), and the open listings are indexed by game and price with what the
-- filters read included, so a page and its count are index-only scans instead of joins through
-- cards and games over every open listing.
ALTER TABLE listings ADD COLUMN game_id integer REFERENCES games (id);
UPDATE listings l SET game_id = c.game_id FROM cards c WHERE c.id = l.card_id;
ALTER TABLE listings ALTER COLUMN game_id SET NOT NULL;
DROP INDEX listings_open_by_price;
CREATE INDEX listings_open_by_price ON listings (price, id) INCLUDE (game_id, condition, expires_at) WHERE status = 'active';
CREATE INDEX listings_open_by_game ON listings (game_id, price, id) INCLUDE (condition, expires_at) WHERE status = 'active';

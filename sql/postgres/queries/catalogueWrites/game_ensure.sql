-- A game by slug, created when missing (only its name is refreshed); its id.
INSERT INTO games (slug, name, publisher, website_url, description) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name
RETURNING id

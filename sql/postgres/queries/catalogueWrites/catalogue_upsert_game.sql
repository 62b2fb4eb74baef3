-- A game by slug, created or updated; its id.
INSERT INTO games (slug, name, publisher, website_url, description) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, publisher = EXCLUDED.publisher,
  website_url = EXCLUDED.website_url, description = EXCLUDED.description
RETURNING id

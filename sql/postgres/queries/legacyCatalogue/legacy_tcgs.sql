-- Every game of the catalogue (legacy "TCG"), by name.
SELECT g.id, g.slug, g.name, g.publisher, g.logo_url, g.website_url, g.description,
       to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM games g
WHERE g.active AND ($1::text IS NULL OR g.slug = $1)
ORDER BY g.name, g.id

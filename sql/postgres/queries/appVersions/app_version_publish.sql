-- Publishes a version above every published one of its platform (no row otherwise). The minimum
-- supported version defaults to the previous release's, or to this version for the first one.
WITH previous AS (
  SELECT version_key, min_supported_version FROM app_versions WHERE platform = $1 ORDER BY version_key DESC LIMIT 1
)
INSERT INTO app_versions (platform, version, min_supported_version, release_notes, download_url, published_by)
SELECT $1, $2, coalesce($3, (SELECT min_supported_version FROM previous), $2), $4, $5, $6
WHERE NOT EXISTS (SELECT 1 FROM previous WHERE version_key >= string_to_array($2, '.')::integer[])
RETURNING id

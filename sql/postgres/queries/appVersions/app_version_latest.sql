-- The highest published version of a platform's app, if any.
SELECT platform, version AS latest_version, min_supported_version, release_notes, download_url, released_at
FROM app_version_records
WHERE platform = $1
ORDER BY version_key DESC
LIMIT 1

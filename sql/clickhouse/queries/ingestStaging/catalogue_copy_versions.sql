-- The catalogue versions whose ClickHouse copy is complete, newest first.
SELECT DISTINCT version FROM holo.catalogue_copies ORDER BY version DESC

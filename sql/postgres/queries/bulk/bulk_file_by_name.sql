-- One bulk export file by its file name.
SELECT dataset, format, filename, kind, game, month::text AS month, rows::float8 AS rows, bytes::float8 AS bytes, sha256,
       source_stamp, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at
FROM bulk_files
WHERE filename = $1

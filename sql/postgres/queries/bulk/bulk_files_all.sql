-- Every bulk export file, data set by data set (catalogues, latest prices, then months newest first).
SELECT dataset, format, filename, kind, game, month::text AS month, rows::float8 AS rows, bytes::float8 AS bytes, sha256,
       source_stamp, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at
FROM bulk_files
ORDER BY CASE kind WHEN 'catalogue' THEN 0 WHEN 'latest' THEN 1 ELSE 2 END, game, month DESC NULLS LAST, dataset, format

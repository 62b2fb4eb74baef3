-- A bulk export file now in place: its size, rows, checksum and the source state it holds.
INSERT INTO bulk_files (dataset, format, filename, kind, game, month, rows, bytes, sha256, source_stamp)
VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10)
ON CONFLICT (dataset, format) DO UPDATE
  SET filename = EXCLUDED.filename, rows = EXCLUDED.rows, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256,
      source_stamp = EXCLUDED.source_stamp, updated_at = now()

-- Bulk export files (issue 18): one row per data set and format, written when the bulkExport
-- workflow has put the file in place under HOLO_DATA_DIR/exports. source_stamp says which state of
-- the stores the file holds (a month's newest ingested_at, the catalogue's newest updated_at), so
-- an unchanged data set is not written again.
CREATE TABLE bulk_files (
  dataset      text NOT NULL,
  format       text NOT NULL CHECK (format IN ('ndjson.gz', 'csv.gz', 'parquet')),
  filename     text NOT NULL UNIQUE,
  kind         text NOT NULL CHECK (kind IN ('catalogue', 'prices', 'latest')),
  game         text,
  month        date,
  rows         bigint NOT NULL CHECK (rows >= 0),
  bytes        bigint NOT NULL CHECK (bytes >= 0),
  sha256       text NOT NULL,
  source_stamp text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (dataset, format)
);

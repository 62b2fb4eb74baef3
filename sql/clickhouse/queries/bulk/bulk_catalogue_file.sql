-- A game's catalogue export in another format (Parquet, CSVWithNames) from its gzip NDJSON, written
-- by chDB; the structure is the catalogue row's (sql/bulk.ts CatalogueRow). Paths and format are parameters.
INSERT INTO FUNCTION file({target:String}, {target_format:String})
SELECT * FROM file(
  {source:String}, 'JSONEachRow',
  'game String, set_id UInt32, set_code String, set_name String, set_release_date Nullable(Date), card_id UInt32, name String, collector_number String, rarity Nullable(String), card_type Nullable(String), printing_id UInt32, language String, print_run String, variant_id UInt32, finish String, variant_label String, external_ids Map(String, String), updated_at DateTime64(6, \'UTC\')'
)
SETTINGS engine_file_truncate_on_insert = 1

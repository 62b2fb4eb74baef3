-- The id and price fields of every card object of a Scryfall bulk file on this machine (a JSON
-- array of card objects, read by ClickHouse's own JSONEachRow: the other ~70 fields of a card are
-- skipped by its parser, never built into objects). Prices stay text as Scryfall writes them; a
-- file that is not an array of objects, or is cut off, fails the query.
SELECT id, prices.usd AS usd, prices.usd_foil AS usd_foil, prices.usd_etched AS usd_etched, prices.eur AS eur, prices.eur_foil AS eur_foil
FROM file(
  {path:String},
  'JSONEachRow',
  'id Nullable(String), prices Tuple(usd Nullable(String), usd_foil Nullable(String), usd_etched Nullable(String), eur Nullable(String), eur_foil Nullable(String))'
)
-- Plain reads of the file, not mmap: a mapped 500 MB file's pages count as the process's resident memory.
SETTINGS storage_file_read_method = 'read'

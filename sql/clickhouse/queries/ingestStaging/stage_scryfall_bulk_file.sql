-- Stages the prices of a Scryfall bulk file on this machine (a JSON array of card objects, read by
-- ClickHouse's own JSONEachRow: a card's other ~70 fields are skipped by its parser, never built
-- into objects) as source rows, with the rule of ingest/sources/scryfallPrices.ts: usd, usd_foil,
-- usd_etched (US market, USD) and eur, eur_foil (EU trend, EUR); an empty price adds nothing, a
-- price that is not decimal text (after a leading $ and thousands commas) is refused with the
-- value, and a card without a Scryfall id is refused whole. A file that is not an array of
-- objects, or is cut off, fails the statement.
INSERT INTO holo.ingest_source_rows
  (stage_id, seq, ref_kind, ref_value, finish, print_run, region, source, price_type, grading_company, grade, currency,
   amount, as_of, observation_id, refused, refused_ref)
SELECT {stage:String}, {seq_base:UInt64} + card_no * 8 + field_no, 'mtg_card_db_id', scryfall_id, finish, '', region, 'scryfall', price_type, 'raw', '', currency,
       price, {as_of:Date}, '',
       multiIf(NOT valid_id, 'card without a Scryfall id', is_price, '', concat(price_type, ': not a price: ', toJSONString(raw))),
       if(valid_id, scryfall_id, if(isNull(raw_id), 'null', toJSONString(assumeNotNull(raw_id))))
FROM
(
  SELECT card_no, scryfall_id, raw_id, valid_id, field.1 AS field_no, field.2 AS finish, field.3 AS region, field.4 AS currency,
         if(region = 'us', 'market', 'trend') AS price_type,
         -- money() of ingest/sources/types.ts: null and '' are no price; else trimmed, a leading $
         -- and thousands commas dropped, it must be decimal text, and a zero adds nothing.
         ifNull(field.5, '') AS raw,
         replaceAll(replaceRegexpOne(replaceRegexpAll(raw, '^\\s+|\\s+$', ''), '^\\$', ''), ',', '') AS price,
         match(price, '^\\d+(\\.\\d+)?$') AS is_price
  FROM
  (
    SELECT rowNumberInAllBlocks() AS card_no, id AS raw_id, ifNull(raw_id, '') AS scryfall_id, match(scryfall_id, '^[0-9a-f-]{36}$') AS valid_id,
           -- (field number, finish, region, currency, value); number 0 stands for the card itself (its refusal)
           [(1, 'normal', 'us', 'USD', prices.usd), (2, 'foil', 'us', 'USD', prices.usd_foil), (3, 'etched', 'us', 'USD', prices.usd_etched),
            (4, 'normal', 'eu', 'EUR', prices.eur), (5, 'foil', 'eu', 'EUR', prices.eur_foil), (0, '', '', '', NULL)] AS fields
    FROM file(
      {path:String},
      'JSONEachRow',
      'id Nullable(String), prices Tuple(usd Nullable(String), usd_foil Nullable(String), usd_etched Nullable(String), eur Nullable(String), eur_foil Nullable(String))'
    )
  )
  ARRAY JOIN fields AS field
)
WHERE if(valid_id, field_no > 0 AND raw != '' AND (NOT is_price OR toFloat64(price) > 0), field_no = 0)
-- Plain reads of the file, not mmap: a mapped 500 MB file's pages count as the process's resident memory.
SETTINGS storage_file_read_method = 'read'

-- Stages the prices of pokemontcg.io /v2/cards pages on this machine ({data: [cards], …} or
-- {data: card}; {path} a file or a glob, each file named by its page's seq base), read by
-- ClickHouse's JSONAsString and its JSON functions (no card becomes a JavaScript object), as source
-- rows with the rule of ingest/sources/pokemontcgIo.ts:
--  * a card whose id is not a string like set-number is refused whole ('card without a valid id');
--  * tcgplayer.prices: refused when tcgplayer.updatedAt is not YYYY/MM/DD, or not a calendar day from
--    {first_day} to {last_day} (UPSTREAM_DAYS of ingest/sources/types.ts; a day the engine reads back
--    unchanged, so 2026/02/30 is not rolled over to March 2 nor 0000/01/01 clamped to 1970), else per
--    finish key (in the document's order; an unknown one is refused) low, mid, high, market and
--    directLow (US, USD);
--  * cardmarket.prices: refused likewise by cardmarket.updatedAt, else its twelve fields (EU, EUR;
--    the reverseHolo ones on the reverse-holofoil finish);
--  * money() of ingest/sources/types.ts: null, absent and '' are no price; a number as written, a
--    string trimmed without a leading $ and thousands commas; it must be decimal text (else refused
--    with the value, and any other JSON type is refused by its type); a zero adds nothing.
-- A page that is not one valid JSON document fails the statement (pokemontcg_page_counts.sql reads
-- each page first and refuses it as a format error).
INSERT INTO holo.ingest_source_rows
  (stage_id, seq, ref_kind, ref_value, finish, print_run, region, source, price_type, grading_company, grade, currency,
   amount, as_of, observation_id, refused, refused_ref)
SELECT {stage:String}, seq_base + card_no * 4096 + slot, 'pokemontcg_id', id, finish, print_run, region, source, price_type,
       'raw', '', currency, price, if(refused = '', toDate(as_of_text), toDate('1970-01-01')), '', refused, refused_ref
FROM
(
  SELECT seq_base, card_no, id, valid_id, slot, finish, print_run, region, source, price_type, currency, as_of_text, block_refused, raw,
         JSONType(raw) AS raw_type,
         -- the price's text: a number as the engine writes it back (as JavaScript's String() does), a string trimmed
         multiIf(raw_type = 'String', replaceAll(replaceRegexpOne(replaceRegexpAll(JSONExtractString(raw), '^\\s+|\\s+$', ''), '^\\$', ''), ',', ''),
                 raw_type IN ('Int64', 'UInt64', 'Double'), raw, '') AS price,
         raw = '' OR raw_type = 'Null' OR (raw_type = 'String' AND JSONExtractString(raw) = '') AS no_price,
         multiIf(
           NOT valid_id, 'card without a valid id',
           block_refused != '', block_refused,
           no_price, '',
           raw_type IN ('Bool', 'Object', 'Array'), concat(price_type, ': unexpected ', if(raw_type = 'Bool', 'boolean', 'object'), ' as a price'),
           NOT match(price, '^\\d+(\\.\\d+)?$'), concat(price_type, ': not a price: ', if(raw_type = 'String', toJSONString(JSONExtractString(raw)), raw)),
           '') AS refused,
         if(valid_id, id, id_json) AS refused_ref
  FROM
  (
    SELECT seq_base, card_no, id, valid_id, id_json, entry.1 AS slot, entry.2 AS source, entry.3 AS region, entry.4 AS currency, entry.5 AS finish,
           entry.6 AS print_run, entry.7 AS price_type, entry.8 AS raw, entry.9 AS as_of_text, entry.10 AS block_refused
    FROM
    (
      SELECT toUInt64(splitByChar('.', _file)[1]) AS seq_base, card_no, card,
             JSONType(card, 'id') = 'String' AS id_is_string,
             if(id_is_string, JSONExtractString(card, 'id'), '') AS id,
             id_is_string AND match(id, '^[a-z0-9.]+-[^\\s/]{1,16}$') AS valid_id,
             -- JSON.stringify(c.id ?? null): the reference a card without a valid id is listed under
             multiIf(id_is_string, toJSONString(id), JSONExtractRaw(card, 'id') IN ('', 'null'), 'null', JSONExtractRaw(card, 'id')) AS id_json,
             -- a block is read when its prices are truthy in JavaScript's sense, dated by its updatedAt
             JSONExtractRaw(card, 'tcgplayer', 'prices') NOT IN ('', 'null', 'false', '0', '""') AS tcg_priced,
             JSONExtractRaw(card, 'cardmarket', 'prices') NOT IN ('', 'null', 'false', '0', '""') AS cm_priced,
             JSONExtractRaw(card, 'tcgplayer', 'updatedAt') AS tcg_stamp,
             JSONExtractRaw(card, 'cardmarket', 'updatedAt') AS cm_stamp,
             if(match(JSONExtractString(card, 'tcgplayer', 'updatedAt'), '^\\d{4}/\\d{2}/\\d{2}$') AND JSONType(card, 'tcgplayer', 'updatedAt') = 'String',
                replaceAll(JSONExtractString(card, 'tcgplayer', 'updatedAt'), '/', '-'), '') AS tcg_day,
             if(match(JSONExtractString(card, 'cardmarket', 'updatedAt'), '^\\d{4}/\\d{2}/\\d{2}$') AND JSONType(card, 'cardmarket', 'updatedAt') = 'String',
                replaceAll(JSONExtractString(card, 'cardmarket', 'updatedAt'), '/', '-'), '') AS cm_day,
             tcg_day != '' AND toString(toDateOrZero(tcg_day)) = tcg_day AND tcg_day BETWEEN {first_day:String} AND {last_day:String} AS tcg_in_range,
             cm_day != '' AND toString(toDateOrZero(cm_day)) = cm_day AND cm_day BETWEEN {first_day:String} AND {last_day:String} AS cm_in_range,
             JSONExtractKeysAndValuesRaw(card, 'tcgplayer', 'prices') AS tcg_finishes,
             -- (slot, source, region, currency, finish, print run, price type, raw value, day, refusal of the block)
             arrayConcat(
               if(NOT valid_id, [(0, '', '', '', '', '', '', '', '', '')], []),
               if(valid_id AND tcg_priced AND tcg_day = '',
                  [(1, '', '', '', '', '', '', '', '', concat('tcgplayer.updatedAt is not YYYY/MM/DD: ', if(tcg_stamp = '', 'undefined', tcg_stamp)))], []),
               if(valid_id AND tcg_priced AND tcg_day != '' AND NOT tcg_in_range,
                  [(1, '', '', '', '', '', '', '', '', concat('tcgplayer.updatedAt is not a day from ', {first_day:String}, ' to ', {last_day:String}, ': ', tcg_stamp))], []),
               if(valid_id AND tcg_priced AND tcg_in_range,
                  arrayFlatten(arrayMap((kv, i) -> if(
                    kv.1 IN {finish_keys:Array(String)},
                    arrayMap((field, t) -> (i * 8 + t, 'tcgplayer', 'us', 'USD', {finishes:Array(String)}[indexOf({finish_keys:Array(String)}, kv.1)],
                                            {print_runs:Array(String)}[indexOf({finish_keys:Array(String)}, kv.1)],
                                            {tcg_types:Array(String)}[t], JSONExtractRaw(kv.2, field), tcg_day, ''),
                             {tcg_fields:Array(String)}, arrayEnumerate({tcg_fields:Array(String)})),
                    [(i * 8, '', '', '', '', '', '', '', '', concat('unknown TCGplayer finish ', kv.1))]),
                    tcg_finishes, arrayEnumerate(tcg_finishes))), []),
               if(valid_id AND cm_priced AND cm_day = '',
                  [(4000, '', '', '', '', '', '', '', '', concat('cardmarket.updatedAt is not YYYY/MM/DD: ', if(cm_stamp = '', 'undefined', cm_stamp)))], []),
               if(valid_id AND cm_priced AND cm_day != '' AND NOT cm_in_range,
                  [(4000, '', '', '', '', '', '', '', '', concat('cardmarket.updatedAt is not a day from ', {first_day:String}, ' to ', {last_day:String}, ': ', cm_stamp))], []),
               if(valid_id AND cm_priced AND cm_in_range,
                  arrayMap((field, t) -> (4000 + t, 'cardmarket', 'eu', 'EUR', {cm_finishes:Array(String)}[t], '', {cm_types:Array(String)}[t],
                                          JSONExtractRaw(card, 'cardmarket', 'prices', field), cm_day, ''),
                           {cm_fields:Array(String)}, arrayEnumerate({cm_fields:Array(String)})), [])
             ) AS entries
      FROM file({path:String}, 'JSONAsString')
      ARRAY JOIN
        if(JSONType(json, 'data') = 'Object', [JSONExtractRaw(json, 'data')], JSONExtractArrayRaw(json, 'data')) AS card,
        arrayEnumerate(if(JSONType(json, 'data') = 'Object', [JSONExtractRaw(json, 'data')], JSONExtractArrayRaw(json, 'data'))) AS card_no
    )
    ARRAY JOIN entries AS entry
  )
)
WHERE refused != '' OR (NOT no_price AND toFloat64OrZero(price) > 0)
SETTINGS storage_file_read_method = 'read'

-- What the paging of pokemontcg.io /v2/cards needs of a page on this machine, read by ClickHouse
-- (the cards are left to stage_pokemontcg_page.sql): how many JSON documents the file holds and
-- whether they are valid JSON (a page cut off or malformed is refused before anything is staged),
-- the page's count and totalCount when they are numbers, and how many cards its data holds.
SELECT toUInt32(count()) AS documents,
       toUInt8(min(isValidJSON(json))) AS valid,
       any(if(JSONType(json, 'count') IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(json, 'count'), NULL)) AS count,
       any(if(JSONType(json, 'totalCount') IN ('Int64', 'UInt64', 'Double'), JSONExtractFloat(json, 'totalCount'), NULL)) AS total_count,
       toUInt32(any(multiIf(JSONType(json, 'data') = 'Object', 1, JSONType(json, 'data') = 'Array', JSONLength(json, 'data'), 0))) AS cards
FROM file({path:String}, 'JSONAsString')
SETTINGS storage_file_read_method = 'read'

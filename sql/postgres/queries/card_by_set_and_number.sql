-- A card by its set's upstream key and its collector number (the demo's pictures are named so).
SELECT c.id FROM cards c JOIN sets s ON s.id = c.set_id WHERE s.external_key = $1 AND c.collector_number = $2

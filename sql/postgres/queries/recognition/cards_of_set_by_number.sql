-- A set's cards by collector number, the set named by its upstream key (the demo's pictures are named so).
SELECT c.id, c.collector_number FROM cards c JOIN sets s ON s.id = c.set_id WHERE s.external_key = $1

-- Every entry id of a user's collection, newest first (export and summary).
SELECT id FROM collection_entries WHERE user_id = $1 ORDER BY id DESC

-- Whether a set exists (a row when it does).
SELECT id FROM sets WHERE id = $1

-- The language a set is printed in.
SELECT language FROM sets WHERE id = $1

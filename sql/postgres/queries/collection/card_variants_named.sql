-- The variants of cards, primary first (unlimited print run, not reverse holo, lowest id), with
-- what names them: the finish and the print run.
SELECT p.card_id, v.id AS variant_id, v.finish, p.print_run
FROM printings p
JOIN variants v ON v.printing_id = p.id
WHERE p.card_id = ANY ($1::int[])
ORDER BY p.card_id, (p.print_run <> 'unlimited'), (v.finish = 'reverse-holofoil'), v.id

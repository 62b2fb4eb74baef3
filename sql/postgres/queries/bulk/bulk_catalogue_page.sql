-- A page of game $1's catalogue for the bulk export: one row per variant after variant id $2, with
-- its card, set and external ids, in variant id order.
SELECT g.slug AS game, s.id AS set_id, s.code AS set_code, s.name AS set_name, s.release_date::text AS set_release_date,
       c.id AS card_id, c.name, c.collector_number, c.rarity, c.card_type, p.id AS printing_id, p.language, p.print_run,
       v.id AS variant_id, v.finish, v.variant_label,
       (SELECT jsonb_object_agg(e.id_kind, e.id_value) FROM variant_external_ids e WHERE e.variant_id = v.id) AS external_ids,
       to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at
FROM variants v
JOIN printings p ON p.id = v.printing_id
JOIN cards c ON c.id = p.card_id
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
WHERE g.slug = $1 AND v.id > $2
ORDER BY v.id
LIMIT $3

-- A card's printings with their variants (a printing without variants once, with a NULL variant).
SELECT p.id AS printing_id, p.language, p.print_run, p.collector_number AS p_number, p.is_promo,
       v.id, v.finish, v.variant_label, v.print_rarity, v.is_ex, v.is_v, v.image_url, v.image_is_fallback
FROM printings p LEFT JOIN variants v ON v.printing_id = p.id
WHERE p.card_id = $1
ORDER BY p.id, v.id

-- Sealed products with a European marketplace id, and their game.
SELECT p.id, g.slug AS game, p.eu_marketplace_product_id AS eu
FROM sealed_products p JOIN games g ON g.id = p.game_id
WHERE p.eu_marketplace_product_id IS NOT NULL

-- Stores a card picture's features (one cut), replacing what an older picture gave.
INSERT INTO recognition_features (card_id, cut, image_sha256, features)
VALUES ($1, $2, $3, $4)
ON CONFLICT (card_id, cut) DO UPDATE SET image_sha256 = EXCLUDED.image_sha256, features = EXCLUDED.features, computed_at = now()

-- Which picture each of these cards' features were computed from.
SELECT card_id, cut, image_sha256 FROM recognition_features WHERE card_id = ANY ($1::int[])

-- Remembers who uploaded a listing photo (the same photo twice: one row).
INSERT INTO listing_images (name, uploader_id, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING

-- Listing photos uploaded through POST /api/upload/listing-image: the file (named by its content's
-- SHA-256) and who uploaded it; a listing's image_urls may only name its seller's uploads.
CREATE TABLE listing_images (
  name        text NOT NULL CHECK (name ~ '^[0-9a-f]{64}\.webp$'),
  uploader_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bytes       integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, uploader_id)
);

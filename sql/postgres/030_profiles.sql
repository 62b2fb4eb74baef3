-- Public profiles (issue 16 §5): whether the collection shows on /users/{username} (off until
-- chosen, as the spec says), and the avatar, an uploaded picture kept by its SHA-256 name.
ALTER TABLE users
  ADD COLUMN is_collection_public boolean NOT NULL DEFAULT false,
  ADD COLUMN avatar text CHECK (avatar ~ '^[0-9a-f]{64}\.webp$');

-- Shows or hides an account's collection on its public profile.
UPDATE users SET is_collection_public = $2 WHERE id = $1 RETURNING is_collection_public

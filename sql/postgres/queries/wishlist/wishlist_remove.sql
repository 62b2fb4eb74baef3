-- Takes an item off a user's wishlist; its id when it was theirs.
DELETE FROM wishlist_items WHERE id = $1 AND user_id = $2 RETURNING id

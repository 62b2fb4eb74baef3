-- How many cards are on a user's wishlist.
SELECT count(*)::int AS n FROM wishlist_items WHERE user_id = $1

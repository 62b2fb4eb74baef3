-- Which of these photo names the user uploaded.
SELECT name FROM listing_images WHERE uploader_id = $1 AND name = ANY ($2::text[])

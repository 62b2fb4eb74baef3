-- The listing a verification code was issued for (codes are stored upper case), with the name
-- its seller chose.
SELECT r.*, coalesce(u.display_name, u.username) AS seller_display_name
FROM listing_records r JOIN users u ON u.id = r.seller_id
WHERE r.verification_code = upper($1)

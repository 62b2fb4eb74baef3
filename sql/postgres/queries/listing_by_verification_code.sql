-- The listing a verification code was issued for (codes are stored upper case).
SELECT * FROM listing_records WHERE verification_code = upper($1)

-- An operator's change to a key that is not revoked: each field only when given ($3, $5, $7 say
-- whether the limit fields were sent; a sent null hands the limit back to the tier). One row when
-- the key exists.
UPDATE api_keys SET
  tier = coalesce($2::text, tier),
  daily_limit = CASE WHEN $3::boolean THEN $4::integer ELSE daily_limit END,
  per_minute_limit = CASE WHEN $5::boolean THEN $6::integer ELSE per_minute_limit END,
  is_active = CASE WHEN $7::boolean IS NULL THEN is_active ELSE $7::boolean END
WHERE id = $1 AND revoked_at IS NULL
RETURNING id, user_id

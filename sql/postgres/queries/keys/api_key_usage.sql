-- A key's usage as the rate limiter counted it (written once a minute per key, off the request path).
UPDATE api_keys SET last_used_at = now(), calls_today = $2, calls_day = $3 WHERE id = $1

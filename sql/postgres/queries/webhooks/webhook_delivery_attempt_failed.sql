-- An attempt failed: counted, with its status code and error.
UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = $2, last_error = $3, last_attempt_at = now() WHERE id = $1

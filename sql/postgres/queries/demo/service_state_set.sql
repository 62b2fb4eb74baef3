-- Sets a value the service keeps about itself.
INSERT INTO service_state (key, value) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()

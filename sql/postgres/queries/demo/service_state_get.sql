-- A value the service keeps about itself (e.g. when the demo data was loaded).
SELECT value FROM service_state WHERE key = $1

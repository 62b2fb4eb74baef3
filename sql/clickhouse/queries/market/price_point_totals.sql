-- Number of stored price points and when the newest was loaded (served from part metadata).
SELECT toString(count()) AS price_points,
       formatDateTime(max(ingested_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC') AS updated_at
FROM holo.price_points

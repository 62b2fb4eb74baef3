-- Queues events for endpoints in one statement; an endpoint that already has an event gets nothing new.
INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event)
SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::jsonb[])
ON CONFLICT (endpoint_id, event_id) DO NOTHING
RETURNING id

-- Remembers feed documents' validators for the next conditional GET.
INSERT INTO feed_validators (url, etag, last_modified)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
ON CONFLICT (url) DO UPDATE SET etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, fetched_at = now()

-- The HTTP validators (ETag, Last-Modified) remembered for feed documents.
SELECT url, etag, last_modified FROM feed_validators WHERE url = ANY ($1)

-- What the index holds, cheaply: an in-memory copy whose version differs reloads.
SELECT count(*)::int AS entries, coalesce(max(computed_at), 'epoch')::text AS latest FROM recognition_features

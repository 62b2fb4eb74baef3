-- The external ids of variants as an upstream states them now: a new or different value replaces
-- the stored one and is logged with its previous value and $4, the reason. Unchanged ids write
-- nothing; an id the upstream no longer states is kept (a missing field is not a retraction).
-- The card's updated_at moves with it, so incremental sync sees the change. Returns the changes.
WITH incoming AS (
  SELECT DISTINCT ON (variant_id, id_kind) variant_id, id_kind, id_value
  FROM unnest($1::int[], $2::text[], $3::text[]) AS u (variant_id, id_kind, id_value)
  ORDER BY variant_id, id_kind
), changed AS (
  SELECT i.variant_id, i.id_kind, i.id_value, e.id_value AS before
  FROM incoming i LEFT JOIN variant_external_ids e USING (variant_id, id_kind)
  WHERE e.id_value IS DISTINCT FROM i.id_value
), written AS (
  INSERT INTO variant_external_ids (variant_id, id_kind, id_value)
  SELECT variant_id, id_kind, id_value FROM changed
  ON CONFLICT (variant_id, id_kind) DO UPDATE SET id_value = EXCLUDED.id_value, updated_at = now()
  RETURNING variant_id
), owners AS (
  SELECT v.id AS variant_id, p.card_id FROM variants v JOIN printings p ON p.id = v.printing_id
  WHERE v.id IN (SELECT variant_id FROM changed)
), touched AS (
  UPDATE cards SET updated_at = now() WHERE id IN (SELECT card_id FROM owners) RETURNING id
)
INSERT INTO external_id_changes (variant_id, card_id, id_kind, before, after, reason)
SELECT c.variant_id, o.card_id, c.id_kind, c.before, c.id_value, CASE WHEN c.before IS NULL THEN 'first seen: ' || $4 ELSE $4 END
FROM changed c JOIN owners o USING (variant_id)
RETURNING id

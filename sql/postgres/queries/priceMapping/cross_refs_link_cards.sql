-- Card-level cross references (printing-agnostic) learnt from hints; existing ones stay.
INSERT INTO cross_refs (card_id, printing_id, ref_key, ref_value)
SELECT card_id, NULL, ref_key, ref_value FROM unnest($1::int[], $2::text[], $3::text[]) AS l (card_id, ref_key, ref_value)
ON CONFLICT DO NOTHING

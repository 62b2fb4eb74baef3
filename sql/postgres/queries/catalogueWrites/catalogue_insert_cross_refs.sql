-- Neutral cross references of cards and printings; existing ones stay.
INSERT INTO cross_refs (card_id, printing_id, ref_key, ref_value)
SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[])
ON CONFLICT (card_id, ref_key, ref_value) DO NOTHING

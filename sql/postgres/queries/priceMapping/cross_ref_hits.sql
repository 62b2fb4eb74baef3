-- Cross references of one kind with any of the given values.
SELECT ref_key AS ref_kind, ref_value, card_id, printing_id FROM cross_refs WHERE ref_key = $1 AND ref_value = ANY ($2)

-- Writes the correlation of a batch of cards (parallel arrays, one element per card).
INSERT INTO card_source_agreement (card_id, variant_id, consensus_usd, confidence, agreeing_sources, considered_sources, spread_pct, disagreeing, correlated_at)
SELECT c.card_id, c.variant_id, c.consensus_usd, c.confidence, c.agreeing, c.considered, c.spread_pct, c.disagreeing, now()
FROM unnest($1::int[], $2::int[], $3::numeric[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::jsonb[])
  AS c (card_id, variant_id, consensus_usd, confidence, agreeing, considered, spread_pct, disagreeing)
WHERE EXISTS (SELECT 1 FROM cards WHERE id = c.card_id)
ON CONFLICT (card_id) DO UPDATE
SET variant_id = EXCLUDED.variant_id, consensus_usd = EXCLUDED.consensus_usd, confidence = EXCLUDED.confidence,
    agreeing_sources = EXCLUDED.agreeing_sources, considered_sources = EXCLUDED.considered_sources,
    spread_pct = EXCLUDED.spread_pct, disagreeing = EXCLUDED.disagreeing, correlated_at = EXCLUDED.correlated_at

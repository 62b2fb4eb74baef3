-- A card's last cross-source correlation, if it was ever correlated.
SELECT a.card_id, a.variant_id, a.consensus_usd::float8 AS consensus_usd, a.confidence, a.agreeing_sources, a.considered_sources,
       a.spread_pct::float8 AS spread_pct, a.disagreeing,
       to_char(a.correlated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS correlated_at
FROM card_source_agreement a
WHERE a.card_id = $1

-- Quarantines what a stage refused: rows refused at parse, rows mapping refused (with the reason),
-- and one entry per (variant, source) pair the cross-source check marked (kept, flagged).
INSERT INTO holo.ingest_rejects (batch_id, source, game, ref, reason, rejected_at)
SELECT {batch:String}, {source:String}, {game:String}, refused_ref, refused, {rejected_at:DateTime64(3, 'UTC')}
FROM holo.ingest_source_rows WHERE stage_id = {stage:String} AND refused != ''
UNION ALL
SELECT {batch:String}, {source:String}, {game:String}, ref, refused, {rejected_at:DateTime64(3, 'UTC')}
FROM holo.ingest_mapped_rows WHERE stage_id = {stage:String} AND refused != ''
UNION ALL
SELECT {batch:String}, {source:String}, {game:String}, message, {cross_source_reason:String}, {rejected_at:DateTime64(3, 'UTC')}
FROM holo.ingest_cross_source WHERE stage_id = {stage:String}

-- A batch's answers under the precompute's new generation, one row per card and query (answers as
-- JSON text). No conflict to resolve: a precompute first discards whatever an interrupted one
-- left beyond the current generation (card_analytics_discard.sql) and writes each card once.
COPY card_analytics (card_id, query, generation, answers) FROM STDIN

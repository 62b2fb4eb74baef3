-- Maps a stage's source rows to variants through the catalogue copy (catalogue_refs,
-- catalogue_variants at {version}) with the rule of ingest/normalise/mapVariants.ts, and flags
-- each row that is an outlier of its own series with the rule of ingest/normalise/outliers.ts:
--  * a reference no card has, or that names several cards, is refused;
--  * the candidates are the card's variants (of the reference's printings, when it names any), in
--    printing order; a print run picks its printing's, none the unlimited printing's when the card
--    has one; no finish picks the first variant that is not reverse-holofoil, a finish the first of
--    that finish, and a generic "foil" the card's one foil finish when it has exactly one;
--  * two rows landing on the same series, day and observation are both refused (which is right is
--    unknowable);
--  * the series baseline is recent_series_stats.sql's (median and MAD of the non-outliers of the
--    {window_days} days before {as_of}, at least {min_history} of them), read for the stage's cards
--    and sources as sets, never as id lists; a point is an outlier when it lies more than {mad_k}
--    scaled MADs from the median and at least {min_ratio}x away from it.
INSERT INTO holo.ingest_mapped_rows
  (stage_id, seq, ref, refused, card_id, variant_id, game, region, source, price_type, grading_company, grade, currency, amount, as_of,
   observation_id, is_outlier)
WITH
  refs AS (
    SELECT ref_kind, ref_value, groupUniqArray(card_id) AS cards, groupUniqArrayIf(assumeNotNull(printing_id), isNotNull(printing_id)) AS printings
    FROM holo.catalogue_refs
    WHERE version = {version:UInt64}
      AND (ref_kind, ref_value) IN (SELECT ref_kind, ref_value FROM holo.ingest_source_rows WHERE stage_id = {stage:String} AND refused = '')
    GROUP BY ref_kind, ref_value
  )
SELECT {stage:String}, seq,
       if(collides, concat('variant:', toString(variant_id)), ref),
       if(collides, concat('several products price the same variant (', if(price_type != '', price_type, concat(grading_company, ' ', grade)), ')'), refused),
       card_id, variant_id, game, m.region, m.source, m.price_type, m.grading_company, m.grade, currency, amount, as_of, observation_id,
       NOT collides AND refused = '' AND b.med > 0
         AND NOT (toFloat64(amount) / b.med < {min_ratio:Float64} AND toFloat64(amount) / b.med > 1 / {min_ratio:Float64})
         AND (1.4826 * b.mad = 0 OR abs(toFloat64(amount) - b.med) / (1.4826 * b.mad) > {mad_k:Float64})
FROM
(
  SELECT seq, ref, region, source, price_type, grading_company, grade, currency, amount, as_of, observation_id, game, refused, card_id, variant_id,
         refused = '' AND count() OVER (PARTITION BY refused = '', variant_id, region, source, price_type, grading_company, grade, as_of, observation_id) > 1 AS collides
  FROM
  (
    -- (only the scalar columns go on: the candidate arrays stay here)
    SELECT s.seq AS seq, concat(s.ref_kind, ':', s.ref_value) AS ref, s.region AS region, s.source AS source, s.price_type AS price_type,
           s.grading_company AS grading_company, s.grade AS grade, s.currency AS currency, s.amount AS amount, s.as_of AS as_of,
           s.observation_id AS observation_id, r.cards AS cards, v.game AS game,
           arrayFilter(x -> empty(r.printings) OR has(r.printings, x.1), v.variants) AS candidates,
           if(s.print_run != '', arrayFilter(x -> x.3 = s.print_run, candidates), candidates) AS in_run,
           if(s.print_run = '' AND arrayExists(x -> x.3 = 'unlimited', in_run), arrayFilter(x -> x.3 = 'unlimited', in_run), in_run) AS pool,
           arrayFilter(x -> x.4 IN ('foil', 'holofoil', 'rainbow-foil', 'cold-foil', 'gold-cold-foil', 'etched'), pool) AS foils,
           multiIf(
             s.finish = '', arrayFirstIndex(x -> x.4 != 'reverse-holofoil', pool),
             arrayExists(x -> x.4 = s.finish, pool), arrayFirstIndex(x -> x.4 = s.finish, pool),
             s.finish = 'foil' AND length(foils) = 1, indexOf(pool, foils[1]),
             0) AS chosen,
           multiIf(
             empty(cards), 'no catalogue card has this reference',
             length(cards) > 1, 'reference names several cards',
             chosen = 0, replaceRegexpAll(concat('card has no ', s.print_run, ' ', if(s.finish = '', 'default', s.finish), ' variant'), '\\s+', ' '),
             '') AS refused,
           if(refused = '', cards[1], 0) AS card_id,
           if(refused = '', pool[chosen].2, 0) AS variant_id
    FROM holo.ingest_source_rows AS s
    LEFT JOIN refs AS r ON r.ref_kind = s.ref_kind AND r.ref_value = s.ref_value
    LEFT JOIN
    (
      -- (printing, variant, print run, finish) of each card, in printing order
      SELECT card_id, any(game) AS game, arraySort(groupArray((printing_id, variant_id, print_run, finish))) AS variants
      FROM holo.catalogue_variants
      WHERE version = {version:UInt64} AND card_id IN (SELECT arrayJoin(cards) FROM refs)
      GROUP BY card_id
    ) AS v ON v.card_id = r.cards[1]
    WHERE s.stage_id = {stage:String} AND s.refused = ''
  )
) AS m
LEFT JOIN
(
  SELECT variant_id, region, source, price_type, grading_company, grade,
         arrayReduce('median', amounts) AS med,
         arrayReduce('median', arrayMap(x -> abs(x - med), amounts)) AS mad
  FROM
  (
    SELECT variant_id, region, source, price_type, grading_company, grade, groupArray(toFloat64(amount)) AS amounts
    FROM holo.price_points
    WHERE card_id IN (SELECT arrayJoin(cards) FROM refs)
      AND source IN (SELECT source FROM holo.ingest_source_rows WHERE stage_id = {stage:String})
      AND as_of < {as_of:Date} AND as_of >= {as_of:Date} - {window_days:UInt32}
      AND NOT is_outlier
    GROUP BY variant_id, region, source, price_type, grading_company, grade
    HAVING length(amounts) >= {min_history:UInt32}
  )
) AS b ON b.variant_id = m.variant_id AND b.region = m.region AND b.source = m.source AND b.price_type = m.price_type
      AND b.grading_company = m.grading_company AND b.grade = m.grade

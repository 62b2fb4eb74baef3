// Cross-source correlation: the per-source medians it compares (ClickHouse) and what it keeps per
// card (PostgreSQL); one typed function per query file.
import { z } from 'zod';
import { chQuery, col, pgQuery, pgStatement } from './typedQuery.js';

const SourceMedianRow = z.object({
  card_id: col.number,
  variant_id: col.number,
  source: z.string(),
  region: z.string(),
  median_usd: col.number,
  days: col.number,
});
/** Per card of an id range, variant and source: the median daily USD market price over `days`. */
export const sourceMediansOfCards = chQuery<{ first_card: number; last_card: number; days: number }, typeof SourceMedianRow>(
  'correlation/source_agreement_batch',
  SourceMedianRow,
);

const Bounds = z.object({ first_card: z.number().int().nullable(), last_card: z.number().int().nullable() });
/** The lowest and highest card id. */
export const cardIdBounds = pgQuery<[], typeof Bounds>('correlation/card_id_bounds', Bounds);

/** Writes a batch of cards' correlations (parallel arrays). */
export const upsertSourceAgreement = pgStatement<
  [
    cardIds: number[],
    variantIds: number[],
    consensusUsd: number[],
    confidence: string[],
    agreeing: number[],
    considered: number[],
    spreadPct: number[],
    disagreeing: string[],
  ]
>('correlation/card_source_agreement_upsert');

export const Disagreeing = z.array(z.object({ source: z.string(), median_usd: z.number(), delta_pct: z.number() }));
const AgreementRow = z.object({
  card_id: z.number().int(),
  variant_id: z.number().int(),
  consensus_usd: z.number(),
  confidence: z.enum(['high', 'medium', 'low']),
  agreeing_sources: z.number().int(),
  considered_sources: z.number().int(),
  spread_pct: z.number(),
  disagreeing: Disagreeing,
  correlated_at: z.string(),
});
/** A card's last correlation (no row before its first). */
export const sourceAgreementOf = pgQuery<[cardId: number], typeof AgreementRow>('correlation/card_source_agreement_of', AgreementRow);

// One source's feed for one game and day, end to end: fetch → parse → map to variants → flag
// outliers → load (idempotent per batch) → quarantine refused rows → announce the new prices.
// The batch id is the business key (source/game/day) plus a digest of the feed, so a retried or
// replayed run of the same feed never doubles a point (same deduplication tokens, same rows),
// while a corrected feed for the same day is a new batch whose rows replace the old ones.
import crypto from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { fetchFeed } from './fetchFeed.js';
import { loadPricePoints, type LoadTargets } from './load/pricePoints.js';
import { mapToVariants } from './normalise/mapVariants.js';
import { flagOutliers } from './normalise/outliers.js';
import { PRICE_FEEDS } from './sources/registry.js';
import type { RejectedRow } from './sources/types.js';

/** The stores an ingestion writes to: the same targets as the price loader. */
export type IngestDeps = LoadTargets;
export type IngestInput = { source: string; game: string; asOf: string; feedsUrl: string };
export type IngestSummary = {
  batchId: string;
  source: string;
  game: string;
  asOf: string;
  status: 'loaded' | 'not-modified';
  fetchedBytes: number;
  parsed: number;
  loaded: number;
  flagged: number;
  rejected: number;
};

export const PRICE_UPDATES_CHANNEL = (prefix: string) => `${prefix}:prices:updates`;

export class UnknownFeedError extends Error {}

export async function ingestFeed(deps: IngestDeps, input: IngestInput, progress: (step: string) => void = () => undefined): Promise<IngestSummary> {
  const spec = PRICE_FEEDS[input.source];
  if (!spec || !spec.games.includes(input.game)) throw new UnknownFeedError(`no ${input.source} feed for ${input.game}`);
  const summary: IngestSummary = {
    batchId: `${input.source}/${input.game}/${input.asOf}`,
    source: input.source,
    game: input.game,
    asOf: input.asOf,
    status: 'loaded',
    fetchedBytes: 0,
    parsed: 0,
    loaded: 0,
    flagged: 0,
    rejected: 0,
  };
  progress('fetching');
  const feed = await fetchFeed(input.feedsUrl + spec.path(input.game, input.asOf), { timeoutMs: 60_000 });
  if (feed.status === 'not-modified') return { ...summary, status: 'not-modified' };
  summary.fetchedBytes = feed.body.length;
  const batchId = `${summary.batchId}:${crypto.createHash('sha1').update(feed.body).digest('hex').slice(0, 12)}`;
  summary.batchId = batchId;
  progress('parsing');
  const parsed = spec.parse(feed.body, input.asOf);
  summary.parsed = parsed.rows.length;
  progress('mapping');
  const mapped = await mapToVariants(deps.pool, parsed.rows);
  progress('flagging outliers');
  summary.flagged = await flagOutliers(deps.ch, mapped.points, input.asOf);
  progress('loading');
  await loadPricePoints(deps, mapped.points, { id: batchId, ingestedAt: new Date(`${input.asOf}T12:00:00Z`) });
  summary.loaded = mapped.points.length;
  const rejected = [...parsed.rejected, ...mapped.rejected];
  summary.rejected = rejected.length;
  await quarantine(deps.ch, batchId, input, rejected);
  progress('publishing');
  await publishUpdates(deps, mapped.points.filter((p) => !p.is_outlier && p.price_type === 'market'));
  return summary;
}

async function quarantine(ch: ClickHouseClient, batchId: string, input: IngestInput, rows: RejectedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ch.insert({
    table: 'holo.ingest_rejects',
    values: rows.map((r) => ({ batch_id: batchId, source: input.source, game: input.game, ref: r.ref, reason: r.reason, rejected_at: `${input.asOf} 12:00:00.000` })),
    format: 'JSONEachRow',
    clickhouse_settings: { insert_deduplication_token: `${batchId}:rejects` },
  });
}

// One message per card for the WebSocket and webhook layer: the card's market price in this batch.
async function publishUpdates(deps: IngestDeps, points: { card_id: number; amount: string; currency: string }[]): Promise<void> {
  const perCard = new Map<number, { card_id: number; market_price: number; currency: string }>();
  for (const p of points) if (!perCard.has(p.card_id)) perCard.set(p.card_id, { card_id: p.card_id, market_price: Number(p.amount), currency: p.currency });
  for (const update of perCard.values()) await deps.redis.publish(PRICE_UPDATES_CHANNEL(deps.redisPrefix), JSON.stringify({ type: 'price_update', data: update }));
}

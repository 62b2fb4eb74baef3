// One source's feed for one game and day, end to end: fetch → parse → map to variants → flag
// outliers → load (idempotent per batch) → quarantine refused rows → announce the new prices.
// Everything after the parse runs set based in ClickHouse over the run's staged rows
// (ingest/load/staged.ts); the largest documents are staged by ClickHouse's own input formats.
// The batch id is the business key (source/game/day) plus a digest of the feed, so a retried or
// replayed run of the same feed never doubles a point (same deduplication tokens, same rows),
// while a corrected feed for the same day is a new batch whose rows replace the old ones.
import crypto from 'node:crypto';
import type pg from 'pg';
import type { LoadTargets } from './load/pricePoints.js';
import {
  dropStage,
  flagStagedCrossSource,
  loadStaged,
  mapStaged,
  newStageId,
  stagedRows,
  stagedUpdates,
  type StagedBatch,
} from './load/staged.js';
import { linkHintedRefs } from './normalise/mapVariants.js';
import { DocumentSpool } from './sources/documentFile.js';
import { missingRequiredCredentials, PRICE_CONNECTORS, type Upstreams } from './upstreams/registry.js';
import type { FeedValidators } from './upstreams/http.js';
import { priceUpdatesChannel } from '../sql/stores/priceChannels.js';
import { feedValidatorsOf, rememberFeedValidators } from '../sql/priceLoads.js';
import { recordFeedFailure, recordFeedRun } from '../sql/status.js';
import type { RedisStore } from '../sql/stores/redis.js';
import type { Logger } from '../sql/runtime/log.js';
import type { PriceUpdate } from '../schemas/stream.js';

/**
 * The stores an ingestion writes to (the same targets as the price loader), and what runs once
 * the new prices are announced (alerts, webhooks: see api/events/dispatch.ts).
 */
export type IngestDeps = LoadTargets & {
  /** The upstream clients (base URL, credentials, request budget), shared by the feeds of a worker. */
  upstreams: Upstreams;
  /** Where a feed's oddities that load anyway are told (an upstream date out of range). */
  log: Logger;
  afterPublish?: (batchId: string, updates: PriceUpdate[]) => Promise<void>;
};
export type IngestInput = { source: string; game: string; asOf: string };
export type IngestSummary = {
  batchId: string;
  source: string;
  game: string;
  asOf: string;
  /** not-modified: every document answered 304 to a conditional GET, so nothing was loaded. */
  status: 'loaded' | 'not-modified';
  fetchedBytes: number;
  parsed: number;
  loaded: number;
  flagged: number;
  /** Flagged rows whose source disagreed with the other sources (see crossSource.ts); some may also be outliers of their own series. */
  crossSourceFlagged: number;
  rejected: number;
  /**
   * Wall time of each step in milliseconds: where a slow run spent its time. Documents are parsed
   * (and staged) as their bytes arrive, so `fetch` holds the reading, parsing and staging of them
   * (`parse` is 0). The ClickHouse insert and the PostgreSQL latest prices run side by side, so
   * the steps can add up to more than the run.
   */
  timings: Record<'fetch' | 'parse' | 'map' | 'outliers' | 'insert' | 'latest' | 'publish', number>;
};

export class UnknownFeedError extends Error {}
/** The source's required credentials are not set: it is off until they are. */
export class SourceOffError extends Error {}

export async function ingestFeed(
  deps: IngestDeps,
  input: IngestInput,
  progress: (step: string) => void = () => undefined,
): Promise<IngestSummary> {
  try {
    return await ingestFeedOnce(deps, input, progress);
  } catch (err) {
    // The sources report shows the last failure since the last load, in the upstream's own words.
    await recordFeedFailure(deps.pool, input.source, input.game, (err as Error).message ?? String(err)).catch(() => undefined);
    throw err;
  }
}

async function ingestFeedOnce(deps: IngestDeps, input: IngestInput, progress: (step: string) => void): Promise<IngestSummary> {
  const connector = PRICE_CONNECTORS[input.source];
  if (!connector || !connector.games.includes(input.game)) throw new UnknownFeedError(`no ${input.source} feed for ${input.game}`);
  const upstream = deps.upstreams[input.source as keyof Upstreams];
  const missing = missingRequiredCredentials(upstream);
  if (missing.length) throw new SourceOffError(`${input.source} is off: set ${missing.join(' and ')} (${upstream.config.url})`);
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
    crossSourceFlagged: 0,
    rejected: 0,
    timings: { fetch: 0, parse: 0, map: 0, outliers: 0, insert: 0, latest: 0, publish: 0 },
  };
  let clock = performance.now();
  const lap = (step: keyof IngestSummary['timings']) => {
    const now = performance.now();
    summary.timings[step] = Math.round(now - clock);
    clock = now;
  };
  const stage = newStageId();
  const spool = new DocumentSpool();
  try {
    progress('fetching');
    const read = await readFeed(deps, input, { id: stage, spool }, progress);
    lap('fetch');
    if (read === 'not-modified') {
      await recordFeedRun(deps.pool, input.source, input.game, 'not-modified', null);
      return { ...summary, status: 'not-modified' };
    }
    const { documents } = read;
    summary.fetchedBytes = read.bytes;
    const batchId = `${summary.batchId}:${read.digest.slice(0, 12)}`;
    summary.batchId = batchId;
    lap('parse');
    const batch: StagedBatch = {
      stage,
      batchId,
      source: input.source,
      game: input.game,
      asOf: input.asOf,
      ingestedAt: loadStamp(input.asOf),
    };
    progress('mapping');
    await mapStaged(deps.ch, deps.pool, batch);
    lap('map');
    progress('flagging outliers');
    await flagStagedCrossSource(deps.ch, batch);
    lap('outliers');
    progress('loading');
    const loaded = await loadStaged(deps, batch, progress);
    Object.assign(summary, {
      parsed: loaded.parsed,
      loaded: loaded.loaded,
      flagged: loaded.flagged,
      crossSourceFlagged: loaded.crossSourceFlagged,
      rejected: loaded.rejected,
    });
    // Only single-document feeds (a bulk file, a CSV) are dated by the document: all their rows.
    if (read.outOfRangeDates.length)
      deps.log.warn("ingestion: upstream date out of range, prices dated by the run's day", {
        source: input.source,
        game: input.game,
        as_of: input.asOf,
        batch_id: batchId,
        upstream_dates: read.outOfRangeDates,
        rows: loaded.parsed,
      });
    summary.timings.insert = Math.round(loaded.timings.insertMs);
    summary.timings.latest = Math.round(loaded.timings.latestMs);
    clock = performance.now();
    progress('publishing');
    const updates = await stagedUpdates(deps.ch, stage);
    await publishPriceUpdates(deps.redis, deps.redisPrefix, updates);
    if (deps.afterPublish) await deps.afterPublish(batchId, updates);
    lap('publish');
    // Only now: a run that failed before the end must fetch in full when retried, or its retry would
    // answer not-modified and never announce what the first attempt loaded (the load itself repeats
    // without doubling: same batch, same deduplication tokens).
    await rememberValidators(deps.pool, documents);
    // The status page's freshness check and the sources report read this.
    await recordFeedRun(deps.pool, input.source, input.game, 'loaded', summary.loaded);
    return summary;
  } finally {
    await spool.close();
    await dropStage(deps.ch, stage).catch(() => undefined);
  }
}

type ReadDocument = { url: string; validators: FeedValidators };
/** `outOfRangeDates`: the documents' upstream dates that were no day their prices may have (dayOf). */
type FeedRead = { documents: ReadDocument[]; bytes: number; digest: string; outOfRangeDates: string[] };

/** Seq numbers of one document's rows: the next document's start after them. */
const DOCUMENT_SEQ = 2 ** 40;

/**
 * Every document of the feed, in order, each parsed and staged as its bytes arrive and hashed on
 * the way (the batch digest). A feed whose one document answered 304 to its conditional GET is
 * 'not-modified'. Any failure (an upstream error, a body cut off, a malformed document) throws
 * before anything is loaded (staged rows are not loaded rows).
 */
async function readFeed(
  deps: IngestDeps,
  input: IngestInput,
  stage: { id: string; spool: DocumentSpool },
  progress: (step: string) => void,
): Promise<FeedRead | 'not-modified'> {
  const connector = PRICE_CONNECTORS[input.source]!;
  const digest = crypto.createHash('sha1');
  const documents: ReadDocument[] = [];
  const notModified: string[] = [];
  const outOfRangeDates: string[] = [];
  let bytes = 0;
  const staged = stagedRows(deps.ch, stage.id);
  const ctx = {
    pool: deps.pool,
    game: input.game,
    day: input.asOf,
    // As the upstream wrote it, cut short: it is untrusted text (a bulk file's updated_at is any JSON value).
    outOfRangeDate: (stamp: string) => void outOfRangeDates.push(String(stamp).slice(0, 64)),
    validators: async (url: string) => {
      const [known] = await feedValidatorsOf(deps.pool, [url]);
      return known ? { etag: known.etag, lastModified: known.last_modified } : undefined;
    },
  };
  for await (const item of connector.documents(deps.upstreams[input.source as keyof Upstreams], ctx)) {
    if ('notModified' in item) {
      notModified.push(item.notModified);
      continue;
    }
    const hashed = (async function* () {
      for await (const chunk of item.body) {
        digest.update(chunk);
        bytes += chunk.byteLength;
        yield chunk;
      }
    })();
    const target = { ch: deps.ch, id: stage.id, seqBase: documents.length * DOCUMENT_SEQ, spool: stage.spool };
    const one = await item.parse(hashed, target);
    digest.update('\0');
    // A guide that prints set names and numbers links its new products before they are mapped.
    await linkHintedRefs(deps.pool, one.rows);
    if (one.rows.length || one.rejected.length) await staged.add(target.seqBase, one);
    documents.push({ url: item.url, validators: item.validators });
    // A paged feed reads for minutes on a busy machine: each page is a sign of life (a heartbeat).
    progress(`fetching (${documents.length} documents read)`);
  }
  await staged.flush();
  await stage.spool.flush();
  if (documents.length === 0 && notModified.length > 0) return 'not-modified';
  // Conditional GETs are made only of single-document feeds, so a feed is either all 304 or read whole.
  if (notModified.length > 0) throw new Error(`${input.source}/${input.game}: part of the feed answered 304 (${notModified.join(', ')})`);
  return { documents, bytes, digest: digest.digest('hex'), outOfRangeDates };
}

/** Remembers the validators of a loaded feed's documents for the next conditional GET. */
async function rememberValidators(pool: pg.Pool, fetched: ReadDocument[]): Promise<void> {
  const withValidators = fetched.filter((f) => f.validators.etag || f.validators.lastModified);
  if (withValidators.length === 0) return;
  await rememberFeedValidators(
    pool,
    withValidators.map((f) => f.url),
    withValidators.map((f) => f.validators.etag),
    withValidators.map((f) => f.validators.lastModified),
  );
}

/**
 * ingested_at of a feed day's rows: noon UTC of that day, so a backfill or replay of a past day
 * writes the same version whenever it runs, but never later than now (a morning run of today would
 * otherwise carry a future time, which /api/v2/stats shows as updated_at). It never decreases for
 * one day as real time passes, so a later correction of the day still wins in ReplacingMergeTree.
 */
function loadStamp(asOf: string): Date {
  return new Date(Math.min(Date.now(), Date.parse(`${asOf}T12:00:00Z`)));
}

const UPDATES_PER_MESSAGE = 500;

// The batch's market price per card for the WebSocket and webhook layer, several cards per
// message (`{type: 'price_updates', data: [{card_id, market_price, currency}]}`): one Redis round
// trip per 500 cards rather than per card.
/** Announces updated market prices to every API instance (WebSocket delivery). */
export async function publishPriceUpdates(redis: RedisStore, redisPrefix: string, updates: PriceUpdate[]): Promise<void> {
  for (let i = 0; i < updates.length; i += UPDATES_PER_MESSAGE)
    await redis.publish(
      priceUpdatesChannel(redisPrefix),
      JSON.stringify({ type: 'price_updates', data: updates.slice(i, i + UPDATES_PER_MESSAGE) }),
    );
}

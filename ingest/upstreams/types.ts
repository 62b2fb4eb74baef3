// What a connector is: for one upstream, the documents of a (game, day) feed as byte streams, in
// order, each with the parser of its format. The pipeline reads each body once (hashing it for the
// batch id while the parser consumes it); a parser may hand the bytes to ClickHouse's input
// formats instead (StageTarget). A paged connector asks for the next page only once the
// previous one is parsed (its count and total decide whether there is one).
import type pg from 'pg';
import type { ClickHouseClient } from '@clickhouse/client';
import type { DocumentSpool } from '../sources/documentFile.js';
import { inDayRange, upstreamDayRange, type ParseResult } from '../sources/types.js';
import type { FeedValidators, Fetched, RequestOptions, Upstream } from './http.js';

export type FeedContext = {
  pool: pg.Pool;
  game: string;
  /** The run's day: the date of prices whose upstream gives none. */
  day: string;
  /**
   * Told of a document's upstream date that is none of the days its prices may have (see dayOf):
   * the document's rows take the run's day, and the pipeline logs how many.
   */
  outOfRangeDate(stamp: string): void;
  /** The validators remembered for a document URL (its last load), for a conditional GET. */
  validators(url: string): Promise<FeedValidators | undefined>;
};

/**
 * Where the pipeline stages a document's rows in ClickHouse (ingest/load/staged.ts): a parser that
 * can hand the bytes to ClickHouse's input formats stages them there itself and returns no rows,
 * at once or through the feed's `spool` (several documents a statement); `seqBase` orders the
 * document's rows after the previous documents'.
 */
export type StageTarget = { ch: ClickHouseClient; id: string; seqBase: number; spool: DocumentSpool };

export type FeedDocument = {
  url: string;
  validators: FeedValidators;
  body: AsyncIterable<Uint8Array>;
  parse(body: AsyncIterable<Uint8Array>, stage?: StageTarget): Promise<ParseResult>;
};

/** A document, or one that answered 304 to a conditional GET. */
export type FeedItem = FeedDocument | { notModified: string };

export type PriceConnector = {
  games: string[];
  documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem>;
};

/**
 * The day of a document's prices: its upstream's own date stamp (ISO or an HTTP date) when that is
 * one of the days the run's prices may have (ingest/sources/types.ts, UPSTREAM_DAYS), else the
 * run's day. A stamp out of range counts as none, by design (README, Upstream dates): it dates the
 * document (a bulk file's updated_at, a Last-Modified header), not a price, so no row is refused
 * for it; it is told to `ctx.outOfRangeDate`, so that the fallback shows in the log.
 */
export function dayOf(stamp: string | null | undefined, ctx: Pick<FeedContext, 'day' | 'outOfRangeDate'>): string {
  if (!stamp) return ctx.day;
  const t = Date.parse(stamp);
  const day = Number.isNaN(t) ? '' : new Date(t).toISOString().slice(0, 10);
  if (inDayRange(day, upstreamDayRange(ctx.day))) return day;
  ctx.outOfRangeDate(stamp);
  return ctx.day;
}

/** A document read from a fetch, parsed by `parse`. */
export const documentOf = (res: Fetched, parse: FeedDocument['parse']): FeedDocument => ({
  url: res.url,
  validators: res.validators,
  body: res.body,
  parse,
});

/**
 * One document read with a conditional GET against its last load's validators: a document whose
 * validators changed (or that has none) is read again, even on the same day.
 */
export async function* conditionalDocument(
  upstream: Upstream,
  ctx: FeedContext,
  pathOrUrl: string,
  parse: (res: Fetched) => FeedDocument['parse'],
  opts: Pick<RequestOptions, 'headers' | 'timeoutMs'> = {},
): AsyncGenerator<FeedItem> {
  const url = upstream.url(pathOrUrl);
  const res = await upstream.request(url, { ...opts, validators: await ctx.validators(url) });
  if (res === 'not-modified') yield { notModified: url };
  else yield documentOf(res, parse(res));
}

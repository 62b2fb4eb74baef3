// Whole answers of the hottest price-dependent GET routes (card detail), kept as bytes in this API
// process: a repeat of the same URL under the same prices epoch is answered without routing,
// validation, handler or a Redis round trip, and never touches PostgreSQL or ClickHouse. The
// caller is still identified, authorised and rate-limited, logged and given CORS headers, by the
// same code as any request. An entry is what the full path answered (200 only) for exactly that
// URL, tagged with the epoch its body was computed under, so a new epoch (prices landed,
// announced to every instance) or the route's max-age ends it. Each entry has an ETag, and
// If-None-Match is answered with 304.
import crypto from 'node:crypto';
import type { Access } from '../auth/principal.js';

export type HotResponse = {
  access: Access;
  body: Buffer;
  etag: string;
  /** The answer's own headers (content type, caching, deprecation) and its ETag. */
  headers: Record<string, string>;
  epoch: string;
  expires: number;
};

/** How many URLs one instance keeps (about 6 KB each for a card: some 12 MB). */
export const HOT_RESPONSE_CAPACITY = 2000;

export class HotResponses {
  private readonly entries = new Map<string, HotResponse>();

  constructor(
    private readonly currentEpoch: () => string,
    private readonly capacity = HOT_RESPONSE_CAPACITY,
  ) {}

  /** The prices epoch now: an answer computed from here on is tagged with it. */
  epoch(): string {
    return this.currentEpoch();
  }

  /** The live entry of a URL (path and query, as requested). */
  get(url: string): HotResponse | undefined {
    const entry = this.entries.get(url);
    if (entry === undefined) return undefined;
    if (entry.epoch !== this.currentEpoch() || entry.expires <= Date.now()) {
      this.entries.delete(url);
      return undefined;
    }
    return entry;
  }

  /** Keeps a route's answer for a URL; `epoch` is the one current when its body was computed. */
  keep(url: string, entry: Omit<HotResponse, 'body' | 'etag' | 'expires'> & { body: string; maxAgeSeconds: number }): HotResponse {
    // The oldest entry makes room (insertion order): hot URLs come straight back.
    if (this.entries.size >= this.capacity && !this.entries.has(url)) this.entries.delete(this.entries.keys().next().value!);
    const body = Buffer.from(entry.body);
    const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
    const kept: HotResponse = {
      access: entry.access,
      body,
      etag,
      headers: { ...entry.headers, ETag: etag },
      epoch: entry.epoch,
      expires: Date.now() + entry.maxAgeSeconds * 1000,
    };
    this.entries.set(url, kept);
    return kept;
  }
}

const NO_CACHE = /(?:^|,)\s*no-cache\s*(?:,|$)/i;

/** Whether a conditional GET names this ETag (If-None-Match, weak or strong, or *), unless it asks for no cache. */
export function notModified(headers: { 'if-none-match'?: string; 'cache-control'?: string }, etag: string): boolean {
  const names = headers['if-none-match'];
  if (!names || NO_CACHE.test(headers['cache-control'] ?? '')) return false;
  return names.split(',').some((t) => {
    const name = t.trim();
    return name === '*' || name === etag || name === `W/${etag}`;
  });
}

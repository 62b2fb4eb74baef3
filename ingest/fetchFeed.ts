// One attempt at reading a feed, from an http(s) URL (with a timeout and a conditional GET) or a
// file. Retrying with backoff is the caller's retry policy (a Temporal activity's), not a loop here.
import fs from 'node:fs/promises';

export type FeedValidators = { etag: string | null; lastModified: string | null };
export type FeedResult =
  { status: 'fresh'; body: string; validators: FeedValidators } | { status: 'not-modified'; validators: FeedValidators };

export class FeedUnavailableError extends Error {}

export async function fetchFeed(location: string, opts: { timeoutMs?: number; validators?: FeedValidators } = {}): Promise<FeedResult> {
  if (!/^https?:\/\//.test(location)) {
    const body = await fs.readFile(location.startsWith('file://') ? new URL(location) : location, 'utf8');
    return { status: 'fresh', body, validators: { etag: null, lastModified: null } };
  }
  const headers: Record<string, string> = { 'User-Agent': 'holo-ingest/0.1', 'Accept-Encoding': 'gzip' };
  if (opts.validators?.etag) headers['If-None-Match'] = opts.validators.etag;
  if (opts.validators?.lastModified) headers['If-Modified-Since'] = opts.validators.lastModified;
  let res: Response;
  try {
    res = await fetch(location, { headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
  } catch (err) {
    throw new FeedUnavailableError(`${location}: ${(err as Error).message}`);
  }
  const validators = { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
  if (res.status === 304) return { status: 'not-modified', validators: opts.validators ?? validators };
  if (!res.ok) throw new FeedUnavailableError(`${location}: HTTP ${res.status}`);
  return { status: 'fresh', body: await res.text(), validators };
}

// One upstream's HTTP client, with what real services demand of a polite caller: a request budget
// (at most `concurrency` requests in flight, starts at least `spacingMs` apart), a User-Agent and
// Accept on every request, 429/503 retried after their Retry-After a bounded number of times,
// 401/403 turned into one operator-readable failure naming the variable to fix, conditional GETs,
// redirects followed (to another host too: fetch drops Authorization when the origin changes), and
// bodies read as byte streams, gunzipped when the upstream sends a gzip file as such.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { UpstreamConfig } from '../../schemas/config.js';
import { FeedFormatError } from '../sources/types.js';

// A caller's stop (a cancelled activity: its run cancelled, its worker stopping) reaches the
// requests made on its behalf, however deep, without every function passing a signal along.
const stopScope = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` with every upstream request made in it aborted once `signal` is. */
export function withUpstreamStop<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  return stopScope.run(signal, work);
}

function requestSignal(timeoutMs: number): AbortSignal {
  const stop = stopScope.getStore();
  return stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs);
}

export type FeedValidators = { etag: string | null; lastModified: string | null };

/** An upstream answered with an error; `retryable` says whether a later attempt may succeed. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
/** 401/403: the credentials are missing, wrong or not allowed; retrying cannot help. */
export class UpstreamAuthError extends UpstreamError {}

/** A body that ended before its document did (connection cut, Content-Length not reached). */
export class TruncatedBodyError extends FeedFormatError {}

export const USER_AGENT = 'Holo/0.1 (trading-card price ingestion; +https://holo.example)';

/**
 * How long a request may take, its whole body included (the signal stays on while the body is
 * read): 120 s for an answer, 30 min for a bulk file (Scryfall's ~500 MB of JSON). One deadline
 * for all the tries of a request and the waits between them, from its first try on: each try has
 * what the ones before it left.
 */
export const REQUEST_TIMEOUT_MS = 120_000;
export const BULK_FILE_TIMEOUT_MS = 30 * 60_000;

/** Retries of a 429/503 within one activity attempt, and the longest Retry-After waited for. */
export const RETRY = { attempts: 4, maxWaitMs: 30_000 };

export type RequestOptions = {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  validators?: FeedValidators;
  timeoutMs?: number;
};

export type Fetched = {
  url: string;
  status: number;
  headers: Headers;
  validators: FeedValidators;
  /** The body's bytes, decoded from gzip; read once. */
  body: AsyncIterable<Uint8Array>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A connection the upstream dropped before it answered: a reset, or a kept-alive socket closed as it
 * was reused (both seen from the mirror under load). An idempotent request is sent again after
 * DROPPED_BACKOFF_MS, doubling, within RETRY.attempts, rather than failing the feed and repeating
 * every page in the activity's next attempt. Nothing else that fails before an answer is retried here.
 */
const DROPPED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const DROPPED_BACKOFF_MS = 100;

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What the upstream said about an error, from the shapes its APIs use; else the body's start. */
function upstreamMessage(text: string): string {
  try {
    const doc = JSON.parse(text) as Record<string, unknown>;
    const error = doc.error as Record<string, unknown> | string | undefined;
    const errors = doc.errors as unknown[] | undefined;
    const first = Array.isArray(errors) ? errors[0] : undefined;
    const candidates = [
      typeof error === 'string' ? error : error?.message,
      typeof first === 'string' ? first : (first as Record<string, unknown> | undefined)?.message,
      doc.details,
      doc.detail,
      doc.message,
      doc.error_description,
      doc['error-message'],
    ];
    const found = candidates.find((c): c is string => typeof c === 'string' && c.length > 0);
    if (found) return found.slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 300) || '(empty body)';
}

/**
 * Whether an OAuth token endpoint refused the client itself (RFC 6749 §5.2: invalid_client). The
 * RFC has it answer 400, not 401, when the credentials came in the form body, as TCGplayer's token
 * request sends them (its documentation names no status for a refusal).
 */
function refusedClient(text: string): boolean {
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return error === 'invalid_client' || error === 'unauthorized_client';
  } catch {
    return false;
  }
}

/** Starts at most `concurrency` at once, each start at least `spacingMs` after the one before. */
class Budget {
  private active = 0;
  private nextStart = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly spacingMs: number,
  ) {}

  /** `signal`: a caller's deadline; a wait for a turn that outlasts it ends with its reason. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.active >= this.concurrency) await this.turn(signal);
    this.active++;
    try {
      const now = Date.now();
      const start = Math.max(now, this.nextStart);
      this.nextStart = start + this.spacingMs;
      if (start > now) await sleep(start - now);
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private turn(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        // Leave the queue: the turn goes to the next waiter.
        const at = this.waiting.indexOf(granted);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason as Error);
      };
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(granted);
    });
  }
}

async function* bytesOf(res: Response, url: string): AsyncIterable<Uint8Array> {
  if (!res.body) return;
  let read = 0;
  const counted = async function* () {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        read += chunk.byteLength;
        yield chunk;
      }
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new TruncatedBodyError(`${url}: the body was cut off after ${read} bytes (${cause}); nothing of it is loaded`);
    }
  };
  const source = counted()[Symbol.asyncIterator]();
  const first = await source.next();
  if (first.done) return;
  // A gzip file served as such (no Content-Encoding, which fetch would have decoded): gunzip it.
  if (first.value[0] === 0x1f && first.value[1] === 0x8b) {
    const rest = { [Symbol.asyncIterator]: () => source };
    const gunzip = Readable.from(
      (async function* () {
        yield first.value;
        yield* rest;
      })(),
    ).pipe(zlib.createGunzip());
    try {
      for await (const chunk of gunzip) yield chunk as Uint8Array;
    } catch (err) {
      if (err instanceof TruncatedBodyError) throw err;
      throw new TruncatedBodyError(`${url}: the gzip body is incomplete or corrupt (${(err as Error).message}); nothing of it is loaded`);
    }
    return;
  }
  yield first.value;
  for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
}

export class Upstream {
  private readonly budget: Budget;

  constructor(
    readonly source: string,
    readonly config: UpstreamConfig,
    private readonly retry = RETRY,
  ) {
    this.budget = new Budget(config.concurrency, config.spacingMs);
  }

  /** Credential variables that are not set. */
  missingCredentials(): string[] {
    return Object.entries(this.config.credentials)
      .filter(([, v]) => !v)
      .map(([k]) => k);
  }

  credential(variable: string): string | undefined {
    return this.config.credentials[variable];
  }

  url(pathAndQuery: string): string {
    return /^https?:\/\//.test(pathAndQuery) ? pathAndQuery : this.config.url + pathAndQuery;
  }

  /**
   * One request, retried on 429/503 after Retry-After (at most `retry.attempts` times, never waiting
   * longer than `retry.maxWaitMs`) and, when idempotent, on a dropped connection, all within one
   * deadline (`timeoutMs`: a wait that would end past it is not made); 'not-modified' for a 304 to
   * a conditional GET.
   */
  async request(pathOrUrl: string, opts: RequestOptions = {}): Promise<Fetched | 'not-modified'> {
    const url = this.url(pathOrUrl);
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: '*/*', 'Accept-Encoding': 'gzip', ...opts.headers };
    if (opts.validators?.etag) headers['If-None-Match'] = opts.validators.etag;
    if (opts.validators?.lastModified) headers['If-Modified-Since'] = opts.validators.lastModified;
    const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    let deadline: { signal: AbortSignal; at: number } | undefined;
    /** Whether a wait of `ms` ends before the deadline (a wait past it would only fail the next try). */
    const fits = (ms: number) => ms < deadline!.at - Date.now();
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.budget.run(
          () => {
            // Started with the first try, not before: waiting for the budget is not the upstream's time.
            deadline ??= { signal: requestSignal(timeoutMs), at: Date.now() + timeoutMs };
            return fetch(url, { method: opts.method ?? 'GET', headers, body: opts.body, redirect: 'follow', signal: deadline.signal });
          },
          // A retry's wait for a turn counts against the deadline its first try started.
          deadline?.signal,
        );
      } catch (err) {
        const cause = (err as { cause?: { message?: string; code?: string } }).cause;
        const backoff = DROPPED_BACKOFF_MS * 2 ** (attempt - 1);
        if (
          (opts.method ?? 'GET') === 'GET' &&
          DROPPED_CONNECTION.has(cause?.code ?? '') &&
          attempt <= this.retry.attempts &&
          fits(backoff)
        ) {
          await sleep(backoff);
          continue;
        }
        if ((err as Error).name === 'TimeoutError')
          throw new UpstreamError(`${this.source}: ${url} did not answer within ${timeoutMs} ms (tries: ${attempt})`, null, true);
        throw new UpstreamError(`${this.source}: ${url} unreachable: ${cause?.message ?? (err as Error).message}`, null, true);
      }
      if (res.status === 304) return 'not-modified';
      if (res.ok)
        return {
          url,
          status: res.status,
          headers: res.headers,
          validators: { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') },
          body: bytesOf(res, url),
        };
      const text = await res.text().catch(() => '');
      const message = upstreamMessage(text);
      if (res.status === 401 || res.status === 403 || (res.status === 400 && refusedClient(text))) {
        const missing = this.missingCredentials();
        const fix = Object.keys(this.config.credentials);
        const hint = fix.length
          ? missing.length
            ? `; set ${missing.join(' and ')}`
            : `; check ${fix.join(' and ')}`
          : '; the upstream refused this client (User-Agent or address)';
        throw new UpstreamAuthError(`${this.source}: HTTP ${res.status} from ${url}: ${message}${hint}`, res.status, false);
      }
      if ((res.status === 429 || res.status === 503) && attempt <= this.retry.attempts) {
        const wait = retryAfterMs(res.headers.get('retry-after')) ?? 1000 * 2 ** (attempt - 1);
        if (wait <= this.retry.maxWaitMs && fits(wait)) {
          await sleep(wait);
          continue;
        }
      }
      // 5xx and 429 may pass (the activity's retry policy tries later); other 4xx will not.
      const retryable = res.status >= 500 || res.status === 429;
      throw new UpstreamError(`${this.source}: HTTP ${res.status} from ${url}: ${message}`, res.status, retryable);
    }
  }

  /** A request that must answer with a body (no validators sent). */
  async fetch(pathOrUrl: string, opts: Omit<RequestOptions, 'validators'> = {}): Promise<Fetched> {
    const res = await this.request(pathOrUrl, opts);
    if (res === 'not-modified') throw new UpstreamError(`${this.source}: ${pathOrUrl} answered 304 to an unconditional request`, 304, true);
    return res;
  }

  /** A small JSON answer (a token, a bulk-data object) read whole. */
  async json<T>(pathOrUrl: string, opts: Omit<RequestOptions, 'validators'> = {}): Promise<T> {
    const res = await this.fetch(pathOrUrl, opts);
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body) chunks.push(chunk);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
    } catch (err) {
      throw new FeedFormatError(`${this.source}: ${res.url} is not JSON: ${(err as Error).message}`);
    }
  }
}

/** An OAuth client-credentials token, fetched on first use and again shortly before it expires. */
export class BearerToken {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly obtain: () => Promise<{ access_token?: string; expires_in?: number }>) {}

  /** Forgets the token (the upstream refused it before its expiry): the next value() asks for a new one. */
  forget(): void {
    this.token = null;
  }

  async value(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt) return this.token.value;
    const answer = await this.obtain();
    if (!answer.access_token) throw new UpstreamAuthError('the token endpoint answered without an access_token', null, false);
    this.token = { value: answer.access_token, expiresAt: Date.now() + Math.max(0, (answer.expires_in ?? 600) - 60) * 1000 };
    return this.token.value;
  }
}

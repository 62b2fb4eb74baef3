// The connectors against local servers that answer at the upstreams' real paths with the recorded
// real formats from shared/data/prices: paging to the last page (and a total that shrinks), 429 and
// 503 with Retry-After, 401/403 failing once with the variable to fix, gzip and chunked bodies, a
// redirect to another host for a bulk file, ETag/Last-Modified revalidation, the upstream's own
// date, a body cut off mid-document refused with nothing loaded, and the per-source request budget.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../sql/runtime/paths.js';
import { UPSTREAMS, type UpstreamConfig, type UpstreamName } from '../schemas/config.js';
import { ingestFeed, SourceOffError } from '../ingest/pipeline.js';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { parseEcbRates } from '../ingest/sources/ecbRates.js';
import { parsePokemontcgIo } from '../ingest/sources/pokemontcgIo.js';
import { parseScryfallPrices } from '../ingest/sources/scryfallPrices.js';
import { FeedFormatError, upstreamDayRange, type ParseResult, type SourceRow } from '../ingest/sources/types.js';
import { RETRY, TruncatedBodyError, Upstream, UpstreamAuthError, UpstreamError } from '../ingest/upstreams/http.js';
import { scheduledEcbRates } from '../ingest/upstreams/ecb.js';
import { pokemontcg } from '../ingest/upstreams/pokemontcg.js';
import { pricecharting } from '../ingest/upstreams/pricecharting.js';
import { createUpstreams, type Upstreams } from '../ingest/upstreams/registry.js';
import { scryfall } from '../ingest/upstreams/scryfall.js';
import { tcgplayer } from '../ingest/upstreams/tcgplayer.js';
import type { FeedContext, PriceConnector, StageTarget } from '../ingest/upstreams/types.js';
import { dropStage, newStageId, stagedRows } from '../ingest/load/staged.js';
import { isoDate } from '../ingest/catalogue/model.js';
import { POKEMON_GAME, pokemonCard, pokemonSet } from '../ingest/catalogue/pokemon.js';
import { upsertCatalogue } from '../ingest/catalogue/upsert.js';
import { DocumentSpool } from '../ingest/sources/documentFile.js';
import { newestFxDay } from '../sql/priceLoads.js';
import { chRows } from './support/clickhouseRows.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

const prices = path.resolve(repoRoot, '..', 'shared', 'data', 'prices');
const recorded = (...p: string[]) => fs.readFileSync(path.join(prices, ...p));
const ecbFile = path.join(prices, 'ecb-eurofxref', 'eurofxref-hist-90d.xml');

type Hit = { method: string; url: string; headers: http.IncomingHttpHeaders; at: number };
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, hits: Hit[]) => void;

/** A local server standing in for an upstream; `handle` may be swapped between steps. */
async function upstreamServer(handle: Handler) {
  const hits: Hit[] = [];
  const state = { handle };
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method!, url: req.url!, headers: req.headers, at: Date.now() });
    state.handle(req, res, hits);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    set: (next: Handler) => (state.handle = next),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const configOf = (name: UpstreamName, url: string, over: Partial<UpstreamConfig> = {}): UpstreamConfig => ({
  url,
  urlSet: true,
  credentials: Object.fromEntries(UPSTREAMS[name].credentials.map((v) => [v, undefined])),
  concurrency: 4,
  spacingMs: 0,
  ...over,
});

/** A body of one chunk, as a fetch hands it on. */
const oneChunkOf = (text: string): AsyncIterable<Uint8Array> =>
  (async function* () {
    yield Buffer.from(text);
  })();

/** A feed's context for `day`; upstream dates out of range are told to `outOfRange`. */
const ctx = (day = '2030-01-01', outOfRange: string[] = []): FeedContext => ({
  pool: null as never,
  game: '',
  day,
  outOfRangeDate: (stamp) => void outOfRange.push(stamp),
  validators: async () => undefined,
});

/**
 * Every row of a connector's feed, read as the pipeline reads it: given a stage, what a parser
 * staged in ClickHouse is read back as rows and refusals.
 */
async function readAll(
  connector: PriceConnector,
  upstream: Upstream,
  c: FeedContext,
  stage?: Omit<StageTarget, 'spool'>,
): Promise<ParseResult & { notModified: number }> {
  const out = { rows: [], rejected: [], notModified: 0 } as ParseResult & { notModified: number };
  let documents = 0;
  const spool = new DocumentSpool();
  try {
    for await (const item of connector.documents(upstream, c)) {
      if ('notModified' in item) {
        out.notModified++;
        continue;
      }
      // Each document's rows after the previous ones', as the pipeline orders them.
      const one = await item.parse(item.body, stage && { ...stage, seqBase: stage.seqBase + documents++ * 2 ** 40, spool });
      out.rows.push(...one.rows);
      out.rejected.push(...one.rejected);
    }
    await spool.flush();
  } finally {
    await spool.close();
  }
  if (stage) {
    type Staged = Record<'ref_kind' | 'ref_value' | 'finish' | 'print_run' | 'observation_id' | 'refused' | 'refused_ref', string> &
      Omit<SourceRow, 'ref' | 'finish' | 'printRun' | 'observation_id'>;
    const staged = await chRows<Staged>(
      stage.ch,
      `SELECT * EXCEPT (stage_id, seq, staged_at) REPLACE (toString(as_of) AS as_of) FROM holo.ingest_source_rows WHERE stage_id = {stage:String} ORDER BY seq`,
      { stage: stage.id },
    );
    for (const { ref_kind, ref_value, finish, print_run, observation_id, refused, refused_ref, ...row } of staged)
      if (refused) out.rejected.push({ ref: refused_ref, reason: refused });
      else
        out.rows.push({
          ...row,
          ref: { kind: ref_kind as SourceRow['ref']['kind'], value: ref_value },
          finish: finish || null,
          printRun: print_run || null,
          ...(observation_id ? { observation_id } : {}),
        });
  }
  return out;
}

describe('pokemontcg.io paging', () => {
  // 260 real cards: the recorded /v2/cards page of 250 and the 10 of another recorded page.
  const cards = [
    ...(JSON.parse(recorded('pokemontcg-io-api', 'pokemon-tcg-sdk-dart', 'cards.json').toString()).data as { id: string }[]),
    ...(JSON.parse(recorded('pokemontcg-io-api', 'pokemon-tcg-sdk-php', 'cards', 'page.json').toString()).data as { id: string }[]),
  ];
  const pages =
    (total: (page: number) => number): Handler =>
    (req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname !== '/v2/cards') return void res.writeHead(404).end();
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('pageSize'));
      const data = cards.slice((page - 1) * size, Math.min(page * size, total(page)));
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ data, page, pageSize: size, count: data.length, totalCount: total(page) }));
    };

  it('reads every page to the last, never an extra empty one, with the API key on each', async () => {
    const server = await upstreamServer(pages(() => cards.length));
    try {
      const upstream = new Upstream(
        'pokemontcg',
        configOf('pokemontcg', server.url, { credentials: { HOLO_POKEMONTCG_API_KEY: 'k-123' } }),
      );
      const read = await readAll(pokemontcg, upstream, ctx());
      assert.deepEqual(
        server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('page')),
        ['1', '2'],
      );
      assert.ok(server.hits.every((h) => h.headers['x-api-key'] === 'k-123' && h.url.includes('pageSize=250')));
      assert.equal(
        new Set(read.rows.map((r) => r.ref.value)).size,
        new Set(cards.filter((c) => (c as { tcgplayer?: unknown }).tcgplayer).map((c) => c.id)).size,
      );
    } finally {
      server.close();
    }
  });

  it('stops where a total that shrank between pages says the cards end, with no card lost or doubled', async () => {
    // Page 1 is answered while the upstream holds 260 cards; by page 2 it says 240, and page 2
    // holds the 10 cards page 1 did not: 260 seen reach the shrunk total, so no page 3 is asked for.
    const server = await upstreamServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const data = page === 1 ? cards.slice(0, 250) : page === 2 ? cards.slice(250) : [];
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ data, page, pageSize: 250, count: data.length, totalCount: page === 1 ? 260 : 240 }));
    });
    try {
      const upstream = new Upstream('pokemontcg', configOf('pokemontcg', server.url));
      const read = await readAll(pokemontcg, upstream, ctx());
      assert.deepEqual(
        server.hits.map((h) => new URL(h.url, 'http://x').searchParams.get('page')),
        ['1', '2'],
        'both pages, and no extra empty page once the shrunk total is reached',
      );
      assert.equal(server.hits[0]!.headers['x-api-key'], undefined, 'no key set, none sent');
      const whole = await parsePokemontcgIo(JSON.stringify({ data: cards, page: 1, pageSize: 260, count: 260, totalCount: 260 }));
      assert.ok(whole.rows.length > 250);
      assert.deepEqual(read.rows, whole.rows, 'every price of the 260 cards, once each');
    } finally {
      server.close();
    }
  });
});

describe('limits and refusals', () => {
  it('waits out 429 and 503 as Retry-After says, then gives up after a bounded number of tries', async () => {
    let answers = ['429:1', '503:0', '200'];
    const server = await upstreamServer((_req, res) => {
      const [status, after] = (answers.shift() ?? '429:0').split(':');
      if (status === '200') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      res.writeHead(Number(status), { 'Retry-After': after! }).end('{"detail":"slow down"}');
    });
    try {
      const upstream = new Upstream('scryfall', configOf('scryfall', server.url));
      assert.deepEqual(await upstream.json('/bulk-data/default-cards'), { ok: true });
      assert.equal(server.hits.length, 3);
      assert.ok(server.hits[1]!.at - server.hits[0]!.at >= 950, 'Retry-After: 1 was waited for');
      // An upstream that keeps answering 429: the first try and RETRY.attempts retries, then a retryable error.
      answers = [];
      server.hits.length = 0;
      await assert.rejects(
        upstream.json('/bulk-data/default-cards'),
        (e: unknown) => e instanceof UpstreamError && e.status === 429 && e.retryable,
      );
      assert.equal(server.hits.length, RETRY.attempts + 1);
      // A Retry-After longer than is worth waiting: no retry inside the attempt at all.
      server.hits.length = 0;
      server.set((_req, res) => res.writeHead(429, { 'Retry-After': '3600' }).end());
      await assert.rejects(upstream.json('/bulk-data/default-cards'), UpstreamError);
      assert.equal(server.hits.length, 1);
    } finally {
      server.close();
    }
  });

  it('sends a GET again when the upstream drops the connection before answering, a bounded number of times; never a POST', async () => {
    let drops = 2;
    const server = await upstreamServer((req, res) => {
      if (drops-- > 0) return void (drops % 2 ? req.socket.resetAndDestroy() : req.socket.destroy());
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    try {
      const upstream = new Upstream('scryfall', configOf('scryfall', server.url));
      // A reset, then a socket closed unanswered: the third request is answered.
      assert.deepEqual(await upstream.json('/bulk-data/default-cards'), { ok: true });
      assert.equal(server.hits.length, 3);
      // An upstream that drops every connection: the first try and RETRY.attempts more, then a retryable error.
      drops = Infinity;
      server.hits.length = 0;
      await assert.rejects(upstream.json('/bulk-data/default-cards'), (e: unknown) => e instanceof UpstreamError && e.retryable);
      assert.equal(server.hits.length, RETRY.attempts + 1);
      // A POST (a token request) is not sent twice: the upstream may have acted on it.
      server.hits.length = 0;
      await assert.rejects(upstream.request('/token', { method: 'POST', body: 'grant_type=client_credentials' }), UpstreamError);
      assert.equal(server.hits.length, 1);
    } finally {
      server.close();
    }
  });

  it('bounds a request, all its tries and the waits between them, by one deadline', async () => {
    // An upstream that stalls, then drops the connection unanswered: each drop is worth another try.
    const server = await upstreamServer((req) => void setTimeout(() => req.socket.resetAndDestroy(), 300));
    try {
      const upstream = new Upstream('scryfall', configOf('scryfall', server.url));
      const failsWithin = async (expected: (e: unknown) => boolean) => {
        const started = Date.now();
        await assert.rejects(upstream.json('/bulk-data/default-cards', { timeoutMs: 1000 }), expected);
        return Date.now() - started;
      };
      // Each try with a deadline of its own: five tries of 300 ms and 1.5 s of backoff between them, ~3 s.
      let took = await failsWithin((e) => e instanceof UpstreamError && e.retryable);
      assert.ok(took < 1500, `gave up after ${took} ms`);
      assert.ok(server.hits.length >= 2 && server.hits.length <= 3, `${server.hits.length} tries`);
      // An upstream that never answers: the deadline ends the one try, and the error says so.
      server.hits.length = 0;
      server.set(() => undefined);
      took = await failsWithin((e) => e instanceof UpstreamError && e.retryable && /did not answer within 1000 ms/.test(e.message));
      assert.ok(took >= 950 && took < 1500, `gave up after ${took} ms`);
      // A Retry-After that ends past the deadline is not waited for: the 429 is the answer at once.
      server.hits.length = 0;
      server.set((_req, res) => res.writeHead(429, { 'Retry-After': '2' }).end());
      took = await failsWithin((e) => e instanceof UpstreamError && e.status === 429 && e.retryable);
      assert.ok(took < 900, `gave up after ${took} ms`);
      assert.equal(server.hits.length, 1);
    } finally {
      server.close();
    }
  });

  it("ends a retry's wait for its turn at the request's deadline (a source allowing one request at a time)", async () => {
    // /drop: the connection dropped unanswered after 50 ms (worth another try); /hold: no answer.
    const server = await upstreamServer((req) => {
      if (req.url!.startsWith('/drop')) setTimeout(() => req.socket.resetAndDestroy(), 50);
    });
    try {
      const upstream = new Upstream('scryfall', configOf('scryfall', server.url, { concurrency: 1 }));
      const started = Date.now();
      const dropped = upstream.json('/drop', { timeoutMs: 1000 });
      // Takes the one turn while the first request backs off, and holds it for 2.5 s.
      const held = upstream.json('/hold', { timeoutMs: 2500 });
      await assert.rejects(dropped, (e) => e instanceof UpstreamError && /did not answer within 1000 ms/.test(e.message));
      const took = Date.now() - started;
      assert.ok(took < 1500, `the retry waited for its turn past its deadline: ${took} ms`);
      await assert.rejects(held, UpstreamError);
    } finally {
      server.close();
    }
  });

  it('turns 401 and 403 into one failure that names the upstream reason and the variable to fix', async () => {
    const server = await upstreamServer((_req, res) =>
      res
        .writeHead(403, { 'Content-Type': 'application/json' })
        .end('{"error":{"message":"Forbidden: the API key is not valid","code":403}}'),
    );
    try {
      const upstream = new Upstream(
        'pokemontcg',
        configOf('pokemontcg', server.url, { credentials: { HOLO_POKEMONTCG_API_KEY: 'wrong' } }),
      );
      await assert.rejects(readAll(pokemontcg, upstream, ctx()), (e: unknown) => {
        assert.ok(e instanceof UpstreamAuthError && !e.retryable);
        assert.match(e.message, /HTTP 403 .*Forbidden: the API key is not valid; check HOLO_POKEMONTCG_API_KEY/);
        return true;
      });
      assert.equal(server.hits.length, 1, 'no retry storm');
      const tcg = new Upstream('tcgplayer', configOf('tcgplayer', server.url));
      server.set((_req, res) => res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"invalid_client"}'));
      await assert.rejects(
        tcg.json('/token', { method: 'POST' }),
        /HTTP 401 .*invalid_client; set HOLO_TCGPLAYER_CLIENT_ID and HOLO_TCGPLAYER_CLIENT_SECRET/,
      );
    } finally {
      server.close();
    }
  });

  it('keeps to the source request budget: concurrency and spacing', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await upstreamServer((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end('{}');
      }, 300);
    });
    try {
      const upstream = new Upstream('tcgplayer', configOf('tcgplayer', server.url, { concurrency: 2, spacingMs: 100 }));
      await Promise.all(Array.from({ length: 6 }, () => upstream.json('/pricing/product/1')));
      assert.equal(most, 2);
      // Six starts at least 100 ms apart span 500 ms or more (without the budget: a few ms); the
      // span, not each gap, so the arrival jitter of a busy machine cannot fail it.
      const starts = server.hits.map((h) => h.at).sort((x, y) => x - y);
      assert.ok(starts.at(-1)! - starts[0]! >= 450, `six requests started within ${starts.at(-1)! - starts[0]!} ms`);
    } finally {
      server.close();
    }
  });
});

describe('Scryfall bulk file', () => {
  const cardsJson = recorded('scryfall', 'mtg_ssm', 'cards.json');
  const bulkData = (downloadUri: string) => ({
    ...JSON.parse(recorded('scryfall', 'aioscryfall', 'bulk_data', 'single.json').toString()),
    object: 'bulk_data',
    type: 'default_cards',
    updated_at: '2024-02-21T10:04:28.615+00:00',
    download_uri: downloadUri,
  });

  it('follows download_uri through a redirect to another host, gzip-encoded and chunked, with the headers Scryfall requires', async () => {
    const files = await upstreamServer((req, res) => {
      if (req.url !== '/file/default-cards-20240221100428.json') return void res.writeHead(404).end();
      // Chunked (no Content-Length), gzip-encoded, in several writes.
      const gz = zlib.gzipSync(cardsJson);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', ETag: '"bulk-1"' });
      for (let i = 0; i < gz.length; i += 4096) res.write(gz.subarray(i, i + 4096));
      res.end();
    });
    const api = await upstreamServer((req, res) => {
      if (req.url === '/bulk-data/default-cards')
        return void res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(bulkData(`${api.url}/download/default-cards`)));
      if (req.url === '/download/default-cards')
        return void res.writeHead(302, { Location: `${files.url}/file/default-cards-20240221100428.json` }).end();
      res.writeHead(404).end();
    });
    try {
      const upstream = new Upstream('scryfall', configOf('scryfall', api.url));
      const read = await readAll(scryfall, upstream, ctx('2030-01-01'));
      const expected = await parseScryfallPrices(cardsJson.toString(), '2024-02-21');
      assert.deepEqual(read.rows, expected.rows, 'every price of the file, dated by the bulk file, not the run');
      for (const hit of [...api.hits, ...files.hits]) {
        assert.match(String(hit.headers['user-agent']), /^Holo\//);
        assert.ok(hit.headers.accept);
      }
      assert.equal(files.hits.length, 1);
    } finally {
      api.close();
      files.close();
    }
  });

  it('reads a gzip file served as such (no Content-Encoding)', async () => {
    const api = await upstreamServer((req, res) => {
      if (req.url === '/bulk-data/default-cards')
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(bulkData(`${api.url}/file.json.gz`)));
      res.writeHead(200, { 'Content-Type': 'application/gzip' }).end(zlib.gzipSync(cardsJson));
    });
    try {
      const read = await readAll(scryfall, new Upstream('scryfall', configOf('scryfall', api.url)), ctx());
      assert.equal(read.rows.length, (await parseScryfallPrices(cardsJson.toString(), '2024-02-21')).rows.length);
    } finally {
      api.close();
    }
  });
});

describe('PriceCharting CSV dating', () => {
  it("dates the guide by the upstream's Last-Modified, else (none, or out of range) by the run's day, and sends the token", async () => {
    const csv = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'pricecharting-pokemon-base.csv'));
    let lastModified: string | null = 'Tue, 24 Nov 2026 06:00:00 GMT';
    const server = await upstreamServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/csv', ...(lastModified ? { 'Last-Modified': lastModified } : {}) }).end(csv),
    );
    try {
      const upstream = new Upstream(
        'pricecharting',
        configOf('pricecharting', server.url, { credentials: { HOLO_PRICECHARTING_TOKEN: 'tok' } }),
      );
      const outOfRange: string[] = [];
      const c = { ...ctx('2030-05-05', outOfRange), game: 'pokemon' };
      const rowsOf = async () => {
        const { rows } = await readAll(pricecharting, upstream, c);
        assert.ok(rows.length > 0);
        return rows;
      };
      assert.ok((await rowsOf()).every((r) => r.as_of === '2026-11-24'));
      assert.equal(server.hits[0]!.url, '/price-guide/download-custom?t=tok&category=pokemon-cards');
      lastModified = null;
      assert.ok((await rowsOf()).every((r) => r.as_of === '2030-05-05'));
      assert.deepEqual(outOfRange, [], 'neither a date in range nor none is told');
      // A date past the days a price may have (UPSTREAM_DAYS), or none at all, is no date either: the run's day, told.
      for (const stamp of ['Fri, 31 Dec 9999 23:59:59 GMT', 'Thu, 31 Dec 1989 12:00:00 GMT', 'yesterday']) {
        lastModified = stamp;
        assert.ok((await rowsOf()).every((r) => r.as_of === '2030-05-05'));
      }
      assert.deepEqual(outOfRange, ['Fri, 31 Dec 9999 23:59:59 GMT', 'Thu, 31 Dec 1989 12:00:00 GMT', 'yesterday']);
    } finally {
      server.close();
    }
  });
});

/** Upstream release dates: date-shaped text (calendar day or not, either separator, a time or anything after), any instant, any text. */
const releaseStamp = fc.oneof(
  fc
    .tuple(
      // Years at the ends of what the text can hold come often: 0000 is a day to zod, none to PostgreSQL.
      fc.oneof(fc.constantFrom(0, 1, 9999), fc.integer({ min: 0, max: 9999 })),
      fc.integer({ min: 0, max: 19 }),
      fc.integer({ min: 0, max: 39 }),
      fc.constantFrom('-', '/'),
      fc.constantFrom('', 'T00:00:00.000Z', 'T23:59:59+09:00', 'T12:00:00', 'T25:00:00Z', ' ', 'x', '0'),
    )
    .map(
      ([y, m, d, sep, tail]) =>
        `${String(y).padStart(4, '0')}${sep}${String(m).padStart(2, '0')}${sep}${String(d).padStart(2, '0')}${tail}`,
    ),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.string(),
);

describe('catalogue release dates (isoDate)', () => {
  it('keeps a calendar day written YYYY-MM-DD or YYYY/MM/DD, alone or leading a timestamp, and nothing else', () => {
    const cases: [unknown, string | null][] = [
      ['2024-02-09', '2024-02-09'],
      ['1999/01/09', '1999-01-09'],
      ['2024/02/29', '2024-02-29'],
      ['2022-05-06T00:00:00.000Z', '2022-05-06'],
      ['2022-05-06T23:30:00+09:00', '2022-05-06'],
      ['2024/02/21 10:04:00', '2024-02-21'],
      ['2022-05-06 10:00Z', '2022-05-06'],
      ['2024-13-45', null],
      ['2024/13/45', null],
      ['2023/02/29', null],
      ['2023-02-29T00:00:00.000Z', null],
      ['2024-04-31', null],
      ['0000-01-01', null],
      ['2024-01-01garbage', null],
      ['2024-1-1', null],
      ['', null],
      [null, null],
      [20240101, null],
    ];
    assert.deepEqual(
      cases.map(([v]) => [v, isoDate(v)]),
      cases,
    );
  });

  it('gives null or a day that round-trips through a Date, and every calendar day as itself (fast-check)', () => {
    const roundTrip = (day: string) => new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10);
    fc.assert(
      fc.property(releaseStamp, (stamp) => {
        const day = isoDate(stamp);
        assert.ok(day === null || roundTrip(day) === day, `${JSON.stringify(stamp)} gave ${day}`);
      }),
      { numRuns: 5000 },
    );
    const days = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(
      fc.property(days, (d) => {
        const day = d.toISOString().slice(0, 10);
        assert.deepEqual([isoDate(d.toISOString()), isoDate(day), isoDate(day.replaceAll('-', '/'))], [day, day, day]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('feeds end to end', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof upstreamServer>>;
  let upstreams: Upstreams;
  const guide = recorded('cardmarket-digimon', 'price_guide_17.json');
  const guidePath = '/productCatalog/priceGuide/price_guide_1.json';
  before(async () => {
    stack = await startStack({ demo: 'none' });
    server = await upstreamServer((_req, res) => res.writeHead(404).end());
    upstreams = createUpstreams({
      ...stack.config.upstreams,
      cardmarket: configOf('cardmarket', server.url),
      tcgplayer: configOf('tcgplayer', server.url),
    });
  });
  after(async () => {
    server?.close();
    await stack?.close();
  });
  const deps = () => ({ ...stack.ingestDeps(), upstreams });

  it('revalidates a document: 304 loads nothing, changed validators load it again the same day', async () => {
    let version = 1;
    server.set((req, res) => {
      if (req.url !== guidePath) return void res.writeHead(404).end();
      const etag = `"guide-v${version}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { ETag: etag }).end();
      const body = version === 1 ? guide : Buffer.from(guide.toString().replace('"avg":0.23', '"avg":0.29'));
      res.writeHead(200, { 'Content-Type': 'application/json', ETag: etag, 'Last-Modified': 'Tue, 14 Jul 2026 01:00:00 GMT' }).end(body);
    });
    const input = { source: 'cardmarket', game: 'mtg', asOf: '2030-01-01' };
    const first = await ingestFeed(deps(), input);
    assert.equal(first.status, 'loaded');
    assert.ok(first.parsed > 10_000, `${first.parsed} prices of the real guide`);
    const second = await ingestFeed(deps(), input);
    assert.equal(second.status, 'not-modified');
    assert.equal(server.hits.at(-1)!.headers['if-none-match'], '"guide-v1"');
    assert.equal(server.hits.at(-1)!.headers['if-modified-since'], 'Tue, 14 Jul 2026 01:00:00 GMT');
    version = 2;
    const third = await ingestFeed(deps(), input);
    assert.equal(third.status, 'loaded');
    assert.notEqual(third.batchId, first.batchId, 'a changed document is a new batch');
  });

  it('refuses a body cut off mid-document as a format error, loading and remembering nothing', async () => {
    const before = async () =>
      Number(
        (
          await chRows<{ n: string }>(
            stack.stores.ch.client,
            `SELECT toString(count()) AS n FROM holo.ingest_rejects WHERE source = 'cardmarket'`,
          )
        )[0]!.n,
      );
    const rejectsBefore = await before();
    await stack.stores.pg.pool.query('DELETE FROM feed_validators');
    for (const framing of ['content-length', 'chunked'] as const) {
      server.set((req, res) => {
        if (req.url !== guidePath) return void res.writeHead(404).end();
        res.writeHead(200, {
          'Content-Type': 'application/json',
          ETag: '"cut"',
          ...(framing === 'content-length' ? { 'Content-Length': String(guide.length) } : {}),
        });
        res.write(guide.subarray(0, Math.floor(guide.length / 2)));
        setTimeout(() => res.socket?.destroy(), 50);
      });
      await assert.rejects(ingestFeed(deps(), { source: 'cardmarket', game: 'mtg', asOf: '2030-01-02' }), (e: unknown) => {
        assert.ok(e instanceof FeedFormatError, String(e));
        assert.ok(e instanceof TruncatedBodyError || /cut off|not JSON/.test(e.message), e.message);
        return true;
      });
    }
    assert.equal(await before(), rejectsBefore, 'nothing quarantined');
    assert.equal((await stack.stores.pg.pool.query('SELECT 1 FROM feed_validators')).rowCount, 0, 'no validators remembered');
  });

  it("stages a Scryfall bulk array through ClickHouse's JSONEachRow with the JavaScript parser's rows and refusals; a cut-off array is refused", async () => {
    const cards = JSON.parse(recorded('scryfall', 'mtg_ssm', 'cards.json').toString()) as Record<string, unknown>[];
    const odd = [
      ...cards,
      { object: 'card', id: 'not-a-uuid', prices: { usd: '1.00' } },
      { object: 'card', prices: { usd: '2.00' } },
      { ...cards[0], id: '00000000-0000-4000-8000-000000000001', prices: { usd: 'abc', eur: '1,234.50', usd_foil: 3.25, eur_foil: null } },
      { ...cards[1], id: '00000000-0000-4000-8000-000000000002', prices: null },
    ];
    // Pretty-printed like the real bulk file: one card over many lines.
    let body = JSON.stringify(odd, null, 1);
    server.set((req, res) => {
      if (req.url === '/bulk-data/default-cards')
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            object: 'bulk_data',
            type: 'default_cards',
            updated_at: '2024-02-21T10:04:28.615+00:00',
            download_uri: `${server.url}/file/cards.json`,
          }),
        );
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(zlib.gzipSync(body));
    });
    const upstream = new Upstream('scryfall', configOf('scryfall', server.url));
    const stage = { ch: stack.stores.ch.client, id: newStageId(), seqBase: 0 };
    const read = await readAll(scryfall, upstream, ctx(), stage);
    await dropStage(stage.ch, stage.id);
    const expected = await parseScryfallPrices(body, '2024-02-21');
    assert.ok(expected.rows.length > 100 && expected.rejected.length === 3, JSON.stringify(expected.rejected));
    assert.deepEqual(read.rows, expected.rows);
    assert.deepEqual(read.rejected, expected.rejected);
    // Cut at a card's end: a well-framed body whose array never closes.
    body = body.slice(0, body.lastIndexOf('},') + 2);
    await assert.rejects(
      readAll(scryfall, upstream, ctx(), { ...stage, id: newStageId() }),
      (e: unknown) => e instanceof FeedFormatError && /cut off/.test(e.message),
    );
  });

  it("dates a bulk file whose updated_at is out of range by the run's day, and logs the rows so dated", async () => {
    const cardsJson = recorded('scryfall', 'mtg_ssm', 'cards.json');
    let updatedAt = '2024-02-21T10:04:28.615+00:00';
    server.set((req, res) => {
      if (req.url === '/bulk-data/default-cards')
        return void res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ object: 'bulk_data', updated_at: updatedAt, download_uri: `${server.url}/file/cards.json` }));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(cardsJson);
    });
    const withScryfall = {
      ...deps(),
      upstreams: createUpstreams({ ...stack.config.upstreams, scryfall: configOf('scryfall', server.url) }),
    };
    const warned = (batchId: string) =>
      stack.logLines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === "ingestion: upstream date out of range, prices dated by the run's day" && l.batch_id === batchId);
    const inRange = await ingestFeed(withScryfall, { source: 'scryfall', game: 'mtg', asOf: '2030-01-04' });
    assert.ok(inRange.parsed > 100, `${inRange.parsed} prices`);
    assert.deepEqual(warned(inRange.batchId), [], 'a bulk file dated in range is not logged');

    updatedAt = '9999-12-31T00:00:00.000+00:00';
    // What the connector stages: every price of the file dated by the run's day (ClickHouse's JSONEachRow path).
    const outOfRange: string[] = [];
    const stage = { ch: stack.stores.ch.client, id: newStageId(), seqBase: 0 };
    const read = await readAll(scryfall, withScryfall.upstreams.scryfall, ctx('2030-01-05', outOfRange), stage).finally(() =>
      dropStage(stage.ch, stage.id),
    );
    assert.equal(read.rows.length, inRange.parsed);
    assert.ok(read.rows.every((r) => r.as_of === '2030-01-05'));
    assert.deepEqual(outOfRange, [updatedAt]);
    // Through the pipeline: one warning naming the date and counting the rows so dated.
    const summary = await ingestFeed(withScryfall, { source: 'scryfall', game: 'mtg', asOf: '2030-01-05' });
    const [line, ...more] = warned(summary.batchId);
    assert.equal(more.length, 0);
    assert.deepEqual(
      {
        level: line?.level,
        source: line?.source,
        game: line?.game,
        as_of: line?.as_of,
        upstream_dates: line?.upstream_dates,
        rows: line?.rows,
      },
      { level: 'warn', source: 'scryfall', game: 'mtg', as_of: '2030-01-05', upstream_dates: [updatedAt], rows: inRange.parsed },
    );
  });

  it("stages pokemontcg.io pages through ClickHouse's JSON functions with the JavaScript parser's rows and refusals; a cut-off page is refused", async () => {
    const real = JSON.parse(recorded('pokemontcg-io-api', 'pokemon-tcg-sdk-dart', 'cards.json').toString()).data as Record<
      string,
      unknown
    >[];
    const tcg = (prices: unknown, updatedAt: unknown = '2024/02/21') => ({ updatedAt, prices });
    const odd = [
      { id: null },
      { id: 123, tcgplayer: tcg({ normal: { low: 1 } }) },
      { id: 'not an id', tcgplayer: tcg({ normal: { low: 1 } }) },
      'not a card',
      { id: 'odd1-1', tcgplayer: tcg({ normal: { low: 1 } }, '2024-02-21'), cardmarket: { prices: { trendPrice: 2 } } },
      {
        id: 'odd1-2',
        tcgplayer: tcg({ shiny: { low: 1 }, holofoil: { low: 'abc', mid: '$1,013.52', high: true, market: 0, directLow: ' 2.50 ' } }),
      },
      {
        id: 'odd1-3',
        tcgplayer: tcg({ '1stEditionNormal': { low: {}, mid: -1, high: 1e2, market: null, directLow: '' }, reverseHolofoil: null }),
      },
      {
        id: 'odd1-4',
        tcgplayer: tcg({}),
        cardmarket: { updatedAt: '2024/02/20', prices: { reverseHoloTrend: 3.1, avg1: [1], lowPrice: '0.00' } },
      },
      { id: 'odd1-5', tcgplayer: tcg(null), cardmarket: { updatedAt: 20240220, prices: { avg7: 1 } } },
      // Days that are no calendar day, or out of range: refused alone, never rolled over or clamped by ClickHouse.
      { id: 'odd1-6', tcgplayer: tcg({ normal: { low: 1 } }, '2026/02/30'), cardmarket: { updatedAt: '0000/01/01', prices: { avg1: 1 } } },
      { id: 'odd1-7', tcgplayer: tcg({ normal: { low: 1 } }, '9999/12/31'), cardmarket: { updatedAt: '2031/01/01', prices: { avg1: 1 } } },
    ];
    const cards = [...real.slice(0, 240), ...odd, ...real.slice(240)];
    const pageOf = (page: number) => {
      const data = cards.slice((page - 1) * 250, page * 250);
      // Pretty-printed, one card over many lines, as a proxy may answer.
      return JSON.stringify({ data, page, pageSize: 250, count: data.length, totalCount: cards.length }, null, page === 2 ? 1 : 0);
    };
    let cut = false;
    const server = await upstreamServer((req, res) => {
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
      const body = pageOf(page);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(cut && page === 2 ? body.slice(0, body.lastIndexOf('},') + 2) : body);
    });
    try {
      const upstream = new Upstream('pokemontcg', configOf('pokemontcg', server.url));
      const stage = { ch: stack.stores.ch.client, id: newStageId(), seqBase: 0 };
      const read = await readAll(pokemontcg, upstream, ctx(), stage);
      const [{ n: staged } = { n: '0' }] = await chRows<{ n: string }>(
        stage.ch,
        'SELECT toString(count()) AS n FROM holo.ingest_source_rows WHERE stage_id = {stage:String}',
        { stage: stage.id },
      );
      await dropStage(stage.ch, stage.id);
      const expected = await parsePokemontcgIo(
        JSON.stringify({ data: cards, totalCount: cards.length }),
        undefined,
        upstreamDayRange('2030-01-01'),
      );
      assert.equal(Number(staged), expected.rows.length + expected.rejected.length, 'every row and refusal staged by ClickHouse');
      assert.equal(server.hits.length, 2, 'both pages, paged by the count and total ClickHouse read, staged in one statement');
      assert.ok(expected.rows.length > 1000 && expected.rejected.length >= 12, JSON.stringify(expected.rejected));
      assert.deepEqual(read.rows, expected.rows);
      assert.deepEqual(read.rejected, expected.rejected);
      assert.deepEqual(
        expected.rejected.filter((r) => r.ref === 'odd1-6' || r.ref === 'odd1-7').map((r) => r.reason),
        [
          'tcgplayer.updatedAt is not a day from 1990-01-01 to 2030-01-02: "2026/02/30"',
          'cardmarket.updatedAt is not a day from 1990-01-01 to 2030-01-02: "0000/01/01"',
          'tcgplayer.updatedAt is not a day from 1990-01-01 to 2030-01-02: "9999/12/31"',
          'cardmarket.updatedAt is not a day from 1990-01-01 to 2030-01-02: "2031/01/01"',
        ],
      );
      assert.ok(expected.rows.every((r) => r.as_of >= '1990-01-01' && r.as_of <= '2030-01-02'));
      cut = true;
      await assert.rejects(
        readAll(pokemontcg, upstream, ctx(), { ...stage, id: newStageId() }),
        (e: unknown) => e instanceof FeedFormatError && /cut off/.test(e.message),
      );
    } finally {
      server.close();
    }
  });

  it("refuses a sale whose lastSoldDate is no calendar day, or out of range, alone: the feed's other sales load", async () => {
    const pool = stack.stores.pg.pool;
    const set = { id: 'dates1', name: 'Dates Set', releaseDate: '2026/01/01' };
    await upsertCatalogue(pool, {
      game: POKEMON_GAME,
      sets: [pokemonSet(set)],
      cards: [pokemonCard({ id: 'dates1-1', name: 'Datesaur', number: '1', rarity: 'Rare' }, set)],
    });
    await pool.query(
      `INSERT INTO auction_watchlist (card_id, reason) SELECT id, 'test' FROM cards WHERE external_key = 'pokemontcg:dates1-1'`,
    );
    const dates = [
      '2030-01-02T10:00:00.000Z',
      '2030-01-03T23:59:59.000Z',
      '2026-02-30T10:00:00.000Z',
      '9999-12-31T00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '+010000-01-01T00:00:00.000Z',
      '2030-01-06T00:00:00.000Z',
      '',
      'not a date',
    ];
    const sales = dates.map((lastSoldDate, i) => ({
      itemId: `v1|77000000${i}|0`,
      title: 'Datesaur 1 Dates Set NM',
      lastSoldDate,
      lastSoldPrice: { value: '10.00', currency: 'USD' },
    }));
    server.set((req, res) => {
      if (req.method === 'POST' && req.url === '/identity/v1/oauth2/token')
        return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"t","expires_in":7200}');
      if (!req.url!.startsWith('/buy/marketplace_insights/v1_beta/item_sales/search')) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ total: sales.length, itemSales: sales }));
    });
    const credentials = { HOLO_EBAY_CLIENT_ID: 'id', HOLO_EBAY_CLIENT_SECRET: 'secret' };
    const withEbay = createUpstreams({ ...stack.config.upstreams, ebay: configOf('ebay', server.url, { credentials }) });
    const summary = await ingestFeed(
      { ...stack.ingestDeps(), upstreams: withEbay },
      { source: 'ebay', game: 'pokemon', asOf: '2030-01-03' },
    );
    assert.deepEqual([summary.loaded, summary.rejected], [2, 7]);
    const loaded = await chRows<{ day: string; id: string }>(
      stack.stores.ch.client,
      `SELECT toString(as_of) AS day, observation_id AS id FROM holo.price_points WHERE batch_id = {batch:String} ORDER BY id`,
      { batch: summary.batchId },
    );
    assert.deepEqual(loaded, [
      { day: '2030-01-02', id: '770000000' },
      { day: '2030-01-03', id: '770000001' },
    ]);
    const quarantined = await chRows<{ ref: string; reason: string }>(
      stack.stores.ch.client,
      `SELECT ref, reason FROM holo.ingest_rejects WHERE batch_id = {batch:String} ORDER BY ref`,
      { batch: summary.batchId },
    );
    assert.deepEqual(
      quarantined,
      dates.slice(2).map((d, i) => ({
        ref: `77000000${i + 2}`,
        reason: `sale without a valid lastSoldDate (an instant on a day from 1990-01-01 to 2030-01-04): ${JSON.stringify(d)}`,
      })),
    );
  });

  it('dates pokemontcg.io blocks as the JavaScript rule does when ClickHouse stages them: any YYYY/MM/DD, calendar day or not (fast-check)', async () => {
    const days = upstreamDayRange('2030-01-01');
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const stamp = fc
      .tuple(
        fc.oneof(fc.integer({ min: 1985, max: 2035 }), fc.integer({ min: 0, max: 9999 })),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 0, max: 39 }),
      )
      .map(([y, m, d]) => `${pad(y, 4)}/${pad(m, 2)}/${pad(d, 2)}`);
    const ch = stack.stores.ch.client;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(stamp, stamp), { minLength: 1, maxLength: 40 }), async (stamps) => {
        const data = stamps.map(([tcg, cm], i) => ({
          id: `prop1-${i + 1}`,
          tcgplayer: { updatedAt: tcg, prices: { normal: { market: 1 } } },
          cardmarket: { updatedAt: cm, prices: { trendPrice: 2 } },
        }));
        const body = JSON.stringify({ data, count: data.length, totalCount: data.length });
        const expected = await parsePokemontcgIo(body, undefined, days);
        const spool = new DocumentSpool();
        const stage = { ch, id: newStageId(), seqBase: 0, spool };
        try {
          await parsePokemontcgIo(oneChunkOf(body), stage, days);
          await spool.flush();
        } finally {
          await spool.close();
        }
        const staged = await chRows<{ ref: string; as_of: string; refused: string }>(
          ch,
          `SELECT if(refused = '', ref_value, refused_ref) AS ref, toString(as_of) AS as_of, refused FROM holo.ingest_source_rows
           WHERE stage_id = {stage:String} ORDER BY seq`,
          { stage: stage.id },
        );
        await dropStage(ch, stage.id);
        assert.deepEqual(
          staged.filter((r) => !r.refused).map((r) => [r.ref, r.as_of]),
          expected.rows.map((r) => [r.ref.value, r.as_of]),
        );
        assert.deepEqual(
          staged.filter((r) => r.refused).map((r) => [r.ref, r.refused]),
          expected.rejected.map((r) => [r.ref, r.reason]),
        );
      }),
      { numRuns: 15 },
    );
  });

  it('keeps upstream references apart that differ only in lone surrogates: refused, never merged as U+FFFD (fast-check)', async () => {
    const ch = stack.stores.ch.client;
    // Ids as pokemontcg.io's shape allows them (set, dash, up to 16 visible characters), lone surrogates among them.
    const unit = fc.constantFrom('a', '1', '.', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFFFD', '\u{1F600}');
    const id = fc.array(unit, { minLength: 1, maxLength: 4 }).map((u) => `lone1-${u.join('')}`);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { minLength: 2, maxLength: 12 }), async (ids) => {
        const data = ids.map((i) => ({ id: i, tcgplayer: { updatedAt: '2030/01/01', prices: { normal: { market: 1 } } } }));
        // The JavaScript parser (a ClickHouse server's path), staged as the pipeline stages it.
        const parsed = await parsePokemontcgIo(
          JSON.stringify({ data, count: ids.length, totalCount: ids.length }),
          undefined,
          upstreamDayRange('2030-01-01'),
        );
        const stage = newStageId();
        const rows = stagedRows(ch, stage);
        await rows.add(0, parsed);
        await rows.flush();
        const staged = await chRows<{ ref_value: string; refused: string; refused_ref: string }>(
          ch,
          'SELECT ref_value, refused, refused_ref FROM holo.ingest_source_rows WHERE stage_id = {stage:String} ORDER BY seq',
          { stage },
        );
        await dropStage(ch, stage);
        const wellFormed = ids.filter((i) => i.isWellFormed());
        assert.deepEqual(
          staged.filter((r) => !r.refused).map((r) => r.ref_value),
          wellFormed,
          'each well-formed id staged as itself',
        );
        assert.deepEqual(
          staged.filter((r) => r.refused).map((r) => r.refused_ref),
          ids.filter((i) => !i.isWellFormed()).map((i) => JSON.stringify(i)),
          'each other id refused under its own (escaped) text',
        );
      }),
      { numRuns: 30 },
    );
    // ClickHouse's JSON functions (chDB's path) take such a page for no JSON at all: a format error, nothing staged.
    const spool = new DocumentSpool();
    const body = JSON.stringify({
      data: [{ id: 'lone1-\uD800', tcgplayer: { updatedAt: '2030/01/01', prices: { normal: { market: 1 } } } }],
      count: 1,
      totalCount: 1,
    });
    try {
      await assert.rejects(parsePokemontcgIo(oneChunkOf(body), { ch, id: newStageId(), seqBase: 0, spool }), FeedFormatError);
    } finally {
      await spool.close();
    }
  });

  it('writes no catalogue key with a lone surrogate: two upstream cards never become one (fast-check)', async () => {
    const pool = stack.stores.pg.pool;
    const unit = fc.constantFrom('a', '\uD800', '\uDBFF', '\uDC00', '\uFFFD');
    const suffix = fc.array(unit, { minLength: 1, maxLength: 3 }).map((u) => u.join(''));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(suffix, { minLength: 2, maxLength: 2 }), async (suffixes) => {
        const set = { id: `lonecat${run++}`, name: 'Lone Set', releaseDate: '2026/01/01' };
        const ids = suffixes.map((x) => `${set.id}-${x}`);
        // Each card its own sync batch, as a sync writes a set at a time.
        const outcomes: string[] = [];
        for (const [n, cardId] of ids.entries())
          outcomes.push(
            await upsertCatalogue(pool, {
              game: POKEMON_GAME,
              sets: [pokemonSet(set)],
              cards: [pokemonCard({ id: cardId, name: `Lone ${n}`, number: String(n + 1), rarity: 'Rare' }, set)],
            }).then(
              () => 'written',
              (e: Error) => (e instanceof FeedFormatError ? 'refused' : `failed: ${e.message}`),
            ),
          );
        assert.deepEqual(
          outcomes,
          ids.map((i) => (i.isWellFormed() ? 'written' : 'refused')),
        );
        const { rows } = await pool.query<{ external_key: string; name: string }>(
          `SELECT external_key, name FROM cards WHERE external_key LIKE $1 ORDER BY name`,
          [`pokemontcg:${set.id}-%`],
        );
        assert.deepEqual(
          rows.map((r) => r.external_key),
          ids.filter((i) => i.isWellFormed()).map((i) => `pokemontcg:${i}`),
          'one card per written upstream card, keyed as the upstream keys it',
        );
      }),
      { numRuns: 25 },
    );
  });

  it("writes every set's release date as isoDate reads it, an impossible one as unknown (null): PostgreSQL takes them all (fast-check)", async () => {
    const pool = stack.stores.pg.pool;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(releaseStamp, { minLength: 1, maxLength: 40 }), async (stamps) => {
        const sets = stamps.map((releaseDate, i) => ({ id: `reldate${run}-${i}`, name: 'Release Date Set', releaseDate }));
        run++;
        await upsertCatalogue(pool, { game: POKEMON_GAME, sets: sets.map(pokemonSet), cards: [] });
        const { rows } = await pool.query<{ key: string; day: string | null }>(
          `SELECT external_key AS key, release_date::text AS day FROM sets WHERE external_key = ANY($1::text[])`,
          [sets.map((s) => `pokemontcg:${s.id}`)],
        );
        const written = new Map(rows.map((r) => [r.key, r.day]));
        assert.deepEqual(
          sets.map((s) => written.get(`pokemontcg:${s.id}`)),
          stamps.map(isoDate),
        );
      }),
      { numRuns: 20 },
    );
  });

  it('prices TCGplayer products in batches with one token a run, renewing a refused token once', async () => {
    // 600 product ids of one card: three pricing calls of 250, 250 and 100.
    const pool = stack.stores.pg.pool;
    const game = (await pool.query(`INSERT INTO games (slug, name) VALUES ('tcg-batches', 'Batches') RETURNING id`)).rows[0].id;
    const set = (
      await pool.query(`INSERT INTO sets (game_id, external_key, code, name) VALUES ($1, 'test:batches', 'B', 'B') RETURNING id`, [game])
    ).rows[0].id;
    const card = (
      await pool.query(
        `INSERT INTO cards (game_id, set_id, external_key, name, collector_number) VALUES ($1, $2, 'test:batches-1', 'One', '1') RETURNING id`,
        [game, set],
      )
    ).rows[0].id;
    const ids = Array.from({ length: 600 }, (_, i) => String(100_001 + i));
    await pool.query(`INSERT INTO cross_refs (card_id, ref_key, ref_value) SELECT $1, 'us_marketplace_product_id', unnest($2::text[])`, [
      card,
      ids,
    ]);
    let valid = 'token-1';
    let issued = 0;
    let tokenAnswer: (res: http.ServerResponse) => void = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ access_token: valid, token_type: 'bearer', expires_in: 1_209_599 }));
    server.set((req, res) => {
      if (req.method === 'POST' && req.url === '/token') return tokenAnswer(res);
      const batch = /^\/pricing\/product\/([\d,]+)$/.exec(req.url!)?.[1]?.split(',');
      if (!batch) return void res.writeHead(404).end();
      if (req.headers.authorization !== `bearer ${valid}`)
        return void res
          .writeHead(401, { 'Content-Type': 'application/json' })
          .end('{"message":"Authorization has been denied for this request."}');
      const results = batch.map((id) => ({
        productId: Number(id),
        lowPrice: 1,
        midPrice: 2,
        highPrice: 3,
        marketPrice: 2.5,
        directLowPrice: null,
        subTypeName: 'Normal',
      }));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success: true, errors: [], results }));
    });
    const credentials = { HOLO_TCGPLAYER_CLIENT_ID: 'id', HOLO_TCGPLAYER_CLIENT_SECRET: 'secret' };
    const upstream = new Upstream('tcgplayer', configOf('tcgplayer', server.url, { credentials }));
    const c = { ...ctx(), pool, game: 'tcg-batches' };
    const hitsOf = (from: number) =>
      server.hits.slice(from).map((h) => (h.url === '/token' ? 'token' : h.url.split('/').at(-1)!.split(',').length));
    const pricedIds = (rows: SourceRow[]) => [...new Set(rows.map((r) => r.ref.value))].sort();

    let from = server.hits.length;
    const first = await readAll(tcgplayer, upstream, c);
    assert.deepEqual(hitsOf(from), ['token', 250, 250, 100], 'one token, then batches of at most 250');
    assert.deepEqual(pricedIds(first.rows), ids, 'every product priced once');
    assert.equal(first.rows.length, ids.length * 4);

    // The next run reuses the token; TCGplayer refuses it (revoked): one new token, the batch again.
    valid = 'token-2';
    from = server.hits.length;
    const second = await readAll(tcgplayer, upstream, c);
    assert.deepEqual(hitsOf(from), [250, 'token', 250, 250, 100]);
    assert.deepEqual(pricedIds(second.rows), ids);

    // A token that is refused again at once: one renewal, then the feed fails naming the variables.
    valid = 'token-3';
    tokenAnswer = (res) => {
      issued++;
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ access_token: `stale-${issued}`, expires_in: 1_209_599 }));
    };
    from = server.hits.length;
    await assert.rejects(readAll(tcgplayer, upstream, c), (e: unknown) => {
      assert.ok(e instanceof UpstreamAuthError && !e.retryable);
      assert.match(
        e.message,
        /HTTP 401 .*Authorization has been denied.*; check HOLO_TCGPLAYER_CLIENT_ID and HOLO_TCGPLAYER_CLIENT_SECRET/,
      );
      return true;
    });
    assert.deepEqual(hitsOf(from), [250, 'token', 250], 'no retry storm');

    // Wrong credentials: the token endpoint's 400 invalid_client (RFC 6749 §5.2 for credentials in the body) names them too.
    tokenAnswer = (res) => res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":"invalid_client"}');
    const wrong = new Upstream('tcgplayer', configOf('tcgplayer', server.url, { credentials }));
    from = server.hits.length;
    await assert.rejects(
      readAll(tcgplayer, wrong, c),
      (e: unknown) =>
        e instanceof UpstreamAuthError &&
        /HTTP 400 .*invalid_client; check HOLO_TCGPLAYER_CLIENT_ID and HOLO_TCGPLAYER_CLIENT_SECRET/.test(e.message),
    );
    assert.deepEqual(hitsOf(from), ['token']);
  });

  it('a source without its credentials is off and says which variables to set', async () => {
    await assert.rejects(
      ingestFeed(deps(), { source: 'tcgplayer', game: 'flesh-and-blood', asOf: '2030-01-01' }),
      (e: unknown) =>
        e instanceof SourceOffError && /tcgplayer is off: set HOLO_TCGPLAYER_CLIENT_ID and HOLO_TCGPLAYER_CLIENT_SECRET/.test(e.message),
    );
  });

  it('reports every source: URL, credentials present or not, last success, rows and freshness', async () => {
    const admin = { Authorization: `Bearer ${fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim()}` };
    const res = await call(stack, 'GET', '/api/admin/ingest/sources', { headers: admin });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.items.map((s: { source: string }) => s.source),
      Object.keys(UPSTREAMS),
    );
    const bySource = Object.fromEntries(res.body.items.map((s) => [s.source, s]));
    // No demo data: the real hosts, and no credentials set.
    assert.equal(bySource.scryfall!.url, 'https://api.scryfall.com');
    assert.equal(bySource.ebay!.on, false);
    assert.deepEqual(bySource.ebay!.credentials, [
      { variable: 'HOLO_EBAY_CLIENT_ID', present: false },
      { variable: 'HOLO_EBAY_CLIENT_SECRET', present: false },
    ]);
    assert.equal(bySource.pokemontcg!.on, true, 'the key is optional');
    const [mtg] = bySource.cardmarket!.feeds;
    assert.equal(mtg!.game, 'mtg');
    assert.ok(mtg!.last_success_at && mtg!.freshness_s !== null && mtg!.freshness_s >= 0);
    assert.equal(typeof mtg!.rows, 'number');
    assert.match(mtg!.last_error ?? '', /cut off|not JSON/, 'the failure since the last load, in the upstream terms');
    assert.equal((await call(stack, 'GET', '/api/admin/ingest/sources')).status, 401);
  });

  it('stores every ECB rate once, however often the same file is loaded', async () => {
    const { rates } = parseEcbRates(fs.readFileSync(ecbFile, 'utf8'));
    const batch = { id: 'ecb-2024-02-27', ingestedAt: new Date('2024-02-27T16:00:00Z'), source: 'ecb' };
    await loadFxRates(stack.stores.ch.client, rates, batch);
    await loadFxRates(stack.stores.ch.client, rates, batch);
    await loadFxRates(stack.stores.ch.client, rates, { ...batch, id: 'ecb-refetch', ingestedAt: new Date('2024-02-28T16:00:00Z') });
    const [row] = await chRows<{ n: string; usd: string }>(
      stack.stores.ch.client,
      `SELECT toString(count()) AS n, toString(anyIf(rate, currency = 'USD' AND day = '2024-02-27')) AS usd FROM holo.fx_rates FINAL WHERE source = 'ecb'`,
    );
    assert.equal(Number(row!.n), rates.length);
    assert.equal(row!.usd, '1.0856');
  });
  it("reads the ECB's daily file on schedule, and the 90-day file only when Holo has none or lacks a working day", async () => {
    const dailyOf = (day: string) =>
      fs.readFileSync(path.join(prices, 'ecb-eurofxref', 'eurofxref-daily.xml'), 'utf8').replace("time='2024-02-27'", `time='${day}'`);
    let daily = dailyOf('2024-02-28');
    server.set((req, res) => {
      if (req.url === '/stats/eurofxref/eurofxref-daily.xml') return void res.writeHead(200, { 'Content-Type': 'text/xml' }).end(daily);
      if (req.url === '/stats/eurofxref/eurofxref-hist-90d.xml')
        return void res.writeHead(200, { 'Content-Type': 'text/xml' }).end(fs.readFileSync(ecbFile));
      res.writeHead(404).end();
    });
    const upstream = new Upstream('ecb', configOf('ecb', server.url));
    const ch = stack.stores.ch.client;
    const run = async () => {
      const from = server.hits.length;
      const [newest] = await newestFxDay(ch, { source: 'ecb' });
      const read = await scheduledEcbRates(upstream, newest!.day === '1970-01-01' ? null : newest!.day);
      await loadFxRates(ch, read.parsed.rates, {
        id: `ecb-test/${read.document}/${daily.length}/${from}`,
        ingestedAt: new Date(),
        source: 'ecb',
      });
      return {
        document: read.document,
        fetched: server.hits.slice(from).map((h) => h.url.split('/').at(-1)),
        days: new Set(read.parsed.rates.map((r) => r.day)),
      };
    };
    // No ECB rate held yet: the daily file, then the last 90 days.
    const first = await scheduledEcbRates(upstream, null);
    assert.equal(first.document, 'hist-90d');
    assert.deepEqual(
      server.hits.slice(-2).map((h) => h.url.split('/').at(-1)),
      ['eurofxref-daily.xml', 'eurofxref-hist-90d.xml'],
    );
    // Holo holds up to Tuesday 2024-02-27 (the 90-day file loaded above): Wednesday's daily file alone.
    assert.equal((await newestFxDay(ch, { source: 'ecb' }))[0]!.day, '2024-02-27');
    assert.deepEqual(await run(), { document: 'daily', fetched: ['eurofxref-daily.xml'], days: new Set(['2024-02-28']) });
    // Friday's run missed, Monday after a weekend with nothing missed but Thursday and Friday: a backfill.
    daily = dailyOf('2024-03-04');
    const gap = await run();
    assert.deepEqual([gap.document, gap.fetched], ['hist-90d', ['eurofxref-daily.xml', 'eurofxref-hist-90d.xml']]);
    // Holding Friday 2024-03-01, Monday's file leaves only the weekend between: the daily file.
    await loadFxRates(ch, parseEcbRates(dailyOf('2024-03-01')).rates, { id: 'ecb-test/friday', ingestedAt: new Date(), source: 'ecb' });
    assert.deepEqual((await run()).fetched, ['eurofxref-daily.xml']);
    const [held] = await chRows<{ days: string[] }>(
      ch,
      `SELECT groupArray(toString(day)) AS days FROM (SELECT DISTINCT day FROM holo.fx_rates WHERE source = 'ecb' AND day >= '2024-02-27' ORDER BY day)`,
    );
    assert.deepEqual(held!.days, ['2024-02-27', '2024-02-28', '2024-03-01', '2024-03-04']);
  });
});

// Workflows on a real Temporal server (the dev server, installed by go install when missing): a
// start with analytics behind the prices precomputes them once; the fxRates workflow loads the ECB
// file; a malformed feed fails fast, without retries.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Client, WorkflowFailedError } from '@temporalio/client';
import protoPackage from '@temporalio/proto';

const proto = protoPackage.temporal;

type RunProgress = NonNullable<ResponseBody<'GET', `/api/admin/ingest/runs/${string}`>['progress']>;
/** A run's progress, of the kind the test started: a scrape, a correlation and a catch-up each report their own. */
const progressOf = <Field extends string>(run: { progress?: RunProgress | null }, _field: Field) =>
  run.progress as Extract<RunProgress, Record<Field, unknown>>;
import { repoRoot } from '../sql/runtime/paths.js';
import { createLogger, silentLogger } from '../sql/runtime/log.js';
import { TASK_QUEUE, workflowIds } from '../workflows/shared.js';
import type { TemporalServer } from '../workflows/temporalServer.js';
import { freePort } from '../sql/runtime/ports.js';
import { insertPricePoints } from '../sql/priceLoads.js';
import { insertIngestRejects } from '../sql/ingestRejects.js';
import { buildDeps, startServer, type RunningServer } from '../api/server.js';
import { activityDeps, createActivities } from '../workflows/activities.js';
import { bulkExport, catalogueSync, catchUp, fxRates, scrapeAll, progressQuery, recognitionIndex } from '../workflows/workflows.js';
import { ImageStore } from '../sql/stores/images.js';
import { CATCH_UP_MAX_DAYS, catchUpCardAnalytics, missingDays } from '../workflows/ingestion.js';
import { cardAnalyticsState } from '../sql/cardAnalytics.js';
import { announcePricesLanded } from '../sql/stores/priceChannels.js';
import { createAnalytics } from '../sql/stores/analytics.js';
import { createDb } from '../sql/stores/db.js';
import { precomputedAnalytics } from '../api/legacy/precomputedAnalytics.js';
import { auctionSalesCountsOf, daysAgo, RAW, resolveScope, seriesStats, sourceMedians } from '../api/legacy/cardPriceAnalytics.js';
import { newestMarketDay } from '../sql/priceLoads.js';
import type { ResponseBody } from './support/routeTypes.js';
import { startFeedServer, type FeedServer } from '../ingest/demoMarket/feedServer.js';
import { dayNumber, quoteAmount } from '../ingest/demoMarket/priceModel.js';
import { FEED_PLANS } from '../ingest/demoMarket/quotePlan.js';
import { createUpstreams, feedPairs } from '../ingest/upstreams/registry.js';
import type { ActivityDeps } from '../workflows/activities.js';
import { chRows } from './support/clickhouseRows.js';
import { call as jsonCall } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { TemporalRig } from './support/temporal.js';
import { until } from './support/until.js';

const ecbFile = path.resolve(repoRoot, '..', 'shared', 'data', 'prices', 'ecb-eurofxref', 'eurofxref-hist-90d.xml');
const silent = silentLogger();

let stack: Stack;
let temporal: TemporalServer;
let rig: TemporalRig;
let client: Client;
let feeds: FeedServer;

// HOLO_RECORD_HISTORIES=1 rewrites test/fixtures/histories from this run (after a deliberate,
// patched() workflow change); normally the recorded files are only replayed.
async function record(name: string, workflowId: string): Promise<void> {
  if (!process.env.HOLO_RECORD_HISTORIES) return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const dir = path.join(repoRoot, 'test', 'fixtures', 'histories');
  fs.mkdirSync(dir, { recursive: true });
  // Binary protobuf: the JSON form goes through a second protobufjs copy in the SDK's tree.
  fs.writeFileSync(path.join(dir, `${name}.history.bin`), proto.api.history.v1.History.encode(history).finish());
  const indexFile = path.join(dir, 'index.json');
  const index = fs.existsSync(indexFile) ? JSON.parse(fs.readFileSync(indexFile, 'utf8')) : {};
  fs.writeFileSync(indexFile, JSON.stringify({ ...index, [`${name}.history.bin`]: workflowId }, null, 2) + '\n');
}

// The ECB at its own paths for the fxRates tests: the recorded 90-day and daily files, then a maintenance page.
let ecb: http.Server;
let ecbBody = fs.readFileSync(ecbFile, 'utf8');
const recordedDaily = fs.readFileSync(path.join(path.dirname(ecbFile), 'eurofxref-daily.xml'), 'utf8');
let ecbDaily = recordedDaily;
const ecbRequests: string[] = [];

before(async () => {
  // Every demo picture indexed already (built once per suite run); the index test takes some out.
  stack = await startStack({ demo: 'small', recognitionIndex: true });
  // The mirror where the stack's configuration points every upstream (demo data, HOLO_FEEDS_PORT).
  feeds = await startFeedServer(stack.stores.pg.url, stack.config.feedsPort);
  ecb = http.createServer((req, res) => {
    ecbRequests.push(req.url!);
    const body = { '/stats/eurofxref/eurofxref-hist-90d.xml': ecbBody, '/stats/eurofxref/eurofxref-daily.xml': ecbDaily }[req.url!];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'Content-Type': 'text/xml' }).end(body);
  });
  await new Promise<void>((resolve) => ecb.listen(0, '127.0.0.1', resolve));
  const ecbUrl = `http://127.0.0.1:${(ecb.address() as AddressInfo).port}`;
  const deps: ActivityDeps = activityDeps(stack.config, stack.stores);
  // The first worker reads the ECB from that server (the fxRates tests come first), the rest from the mirror.
  rig = await TemporalRig.start(stack, {
    ...deps,
    upstreams: createUpstreams({ ...stack.config.upstreams, ecb: { ...stack.config.upstreams.ecb, url: ecbUrl } }),
  });
  ({ temporal, client } = rig);
});
after(async () => {
  await rig?.close();
  ecb?.closeAllConnections();
  ecb?.close();
  await feeds?.close();
  await stack?.close();
});

/** How many runs of a workflow type started since `since`, once none of them runs any more. */
async function runsSince(type: string, since: string): Promise<number> {
  const count = async (status: string) => {
    let n = 0;
    for await (const _ of client.workflow.list({ query: `WorkflowType = '${type}' AND StartTime >= '${since}'${status}` })) n++;
    return n;
  };
  await until(`${type} runs to end`, async () => (await count(" AND ExecutionStatus = 'Running'")) === 0 && (await count('')) > 0, 120_000);
  return count('');
}

// First in the file: the stack holds the small demo as a first start leaves it, with no scrape or
// exchange-rate load yet (each of which precomputes after its load).
describe('card analytics at start (issue 35)', () => {
  it('a start with the demo loaded and nothing precomputed publishes every card under the current epoch; starts at once run one', async () => {
    const pool = stack.stores.pg.pool;
    const catchUp = () => catchUpCardAnalytics(client, stack.stores, stack.config.redisPrefix);
    assert.deepEqual(await cardAnalyticsState(pool), [], 'nothing precomputed before the start');
    const since = new Date().toISOString();
    const outcomes = await Promise.all([1, 2, 3].map(catchUp));
    assert.equal(await runsSince('cardAnalyticsCatchUp', since), 1, 'three starts at once run one precompute');
    assert.deepEqual(outcomes.sort(), ['running', 'running', 'started']);
    const [state] = await cardAnalyticsState(pool);
    assert.equal(state?.prices_epoch, (await stack.json('/api/health')).body.prices_epoch, 'published under the epoch the API reads under');
    const { rows: cards } = await pool.query<{ card_id: number; n: number }>(
      `SELECT count(DISTINCT card_id)::int AS n, min(card_id) AS card_id FROM card_analytics WHERE generation = $1`,
      [state!.generation],
    );
    assert.ok(cards[0]!.n >= 500, `every priced card of the demo: ${cards[0]!.n}`);

    // A card's uncached price-aggregates (the first read under the new epoch) reads only the
    // precompute's answers, and equals the answer computed from ClickHouse (under a fresh epoch).
    const { rows: single } = await pool.query<{ card_id: number }>(
      `SELECT p.card_id FROM printings p JOIN variants v ON v.printing_id = p.id
       WHERE p.card_id IN (SELECT card_id FROM card_analytics WHERE generation = $1)
       GROUP BY p.card_id HAVING count(*) = 1 ORDER BY p.card_id LIMIT 1`,
      [state!.generation],
    );
    const cardId = single[0]!.card_id;
    const db = createDb(pool);
    const scope = (await resolveScope(db, cardId))!;
    const live = createAnalytics(stack.stores.ch.client, { readonly: false, isClosed: () => false });
    const precomputed = precomputedAnalytics(db, live, () => state!.prices_epoch);
    await precomputed.answer(cardId, (answers) =>
      Promise.all([
        seriesStats(answers, scope, RAW, daysAgo(3650)),
        sourceMedians(answers, scope, RAW, 30),
        auctionSalesCountsOf(answers, scope, RAW),
      ]),
    );
    assert.deepEqual(precomputed.stats, { precomputed: 3, clickhouse: 0 }, "price-aggregates' reads all answered by the precompute");
    const url = `/api/cards/${cardId}/price-aggregates` as const;
    const fromPrecompute = await stack.json(url);
    assert.equal(fromPrecompute.status, 200);
    assert.ok(fromPrecompute.body.current.price !== null, 'a priced card');
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, `reference-${Date.now()}`);
    assert.deepEqual(fromPrecompute.body, (await stack.json(url)).body, 'the same answer as ClickHouse gives');

    // Under the published epoch again, a start finds nothing to do.
    await announcePricesLanded(stack.stores.redis, stack.config.redisPrefix, state!.prices_epoch);
    assert.equal(await catchUp(), 'current');
  });
});

describe('fxRates workflow', () => {
  after(async () => {
    // Back to the worker whose upstreams are all the mirror's.
    await rig.startWorker();
  });

  it('loads the ECB reference rates through an activity', async () => {
    const workflowId = workflowIds.fxRates(`test-${Date.now()}`);
    const result = await client.workflow.execute(fxRates, {
      args: [{ document: 'hist-90d', batchId: 'ecb-test-90d' }],
      taskQueue: TASK_QUEUE,
      workflowId,
    });
    await record('fxRates', workflowId);
    assert.equal(result.rejected, 0);
    assert.equal(result.days.length, 61);
    const [row] = await chRows<{ n: string }>(
      stack.stores.ch.client,
      `SELECT toString(count()) AS n FROM holo.fx_rates FINAL WHERE source = 'ecb'`,
    );
    assert.equal(Number(row!.n), result.loaded);
  });

  it('reads the daily file on schedule, and the 90-day file only to fill a gap', async () => {
    // Holo holds the 90 days up to Tuesday 2024-02-27: Wednesday's daily file is all a run reads.
    const run = async (day: string) => {
      ecbDaily = recordedDaily.replace("time='2024-02-27'", `time='${day}'`);
      ecbRequests.length = 0;
      const result = await client.workflow.execute(fxRates, {
        args: [{}],
        taskQueue: TASK_QUEUE,
        workflowId: workflowIds.fxRates(`daily-${day}-${Date.now()}`),
      });
      return [result.document, result.days.at(-1), ecbRequests.map((u) => u.split('/').at(-1))];
    };
    assert.deepEqual(await run('2024-02-28'), ['daily', '2024-02-28', ['eurofxref-daily.xml']]);
    // The runs of Thursday and Friday were missed: Monday's reads the last 90 days as well.
    assert.deepEqual((await run('2024-03-04')).slice(0, 1).concat([ecbRequests.map((u) => u.split('/').at(-1))]), [
      'hist-90d',
      ['eurofxref-daily.xml', 'eurofxref-hist-90d.xml'],
    ]);
  });

  it('fails a malformed feed at once instead of retrying it', async () => {
    ecbBody = '<html>maintenance</html>';
    ecbDaily = ecbBody;
    const workflowId = workflowIds.fxRates(`bad-${Date.now()}`);
    await assert.rejects(
      client.workflow.execute(fxRates, {
        args: [{ batchId: 'ecb-bad' }],
        taskQueue: TASK_QUEUE,
        workflowId,
      }),
      (err: unknown) =>
        err instanceof WorkflowFailedError &&
        /no <Cube time/.test(String((err.cause as { cause?: { message?: string } } | undefined)?.cause?.message)),
    );
    // One attempt, as the history records it (the started event of a retried activity carries its last attempt).
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    assert.deepEqual(
      events.flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : [])),
      [1],
      'no retry of a non-retryable failure',
    );
  });
});

describe('recognitionIndex workflow', () => {
  it('computes features for the pictures without them, in batches, and again only for a changed picture', async () => {
    const store = new ImageStore(path.join(stack.config.dataDir, 'images'));
    const pictured = await store.cardsWithOriginals();
    assert.ok(pictured.length >= 600, 'the demo copied the real scans');
    const run = (stamp: string) =>
      client.workflow.execute(recognitionIndex, { args: [], taskQueue: TASK_QUEUE, workflowId: workflowIds.recognitionIndex(stamp) });
    // The stack's pictures are indexed; every 12th card's features go, so the run has some to
    // compute in each of its batches of 200 and the rest to leave alone.
    const missing = pictured.filter((_, i) => i % 12 === 0);
    await stack.stores.pg.pool.query('DELETE FROM recognition_features WHERE card_id = ANY($1::int[])', [missing]);
    const first = await run(`first-${Date.now()}`);
    assert.deepEqual(
      [first.cards_total, first.cards_done, first.computed, first.unchanged, first.unreadable],
      [pictured.length, pictured.length, missing.length, pictured.length - missing.length, 0],
    );
    const { rows } = await stack.stores.pg.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM recognition_features');
    assert.equal(rows[0]!.n, 2 * pictured.length, 'two cuts a card');
    const again = await run(`again-${Date.now()}`);
    assert.deepEqual([again.computed, again.unchanged], [0, pictured.length], 'nothing is recomputed for unchanged pictures');
    await store.saveOriginal(pictured[0]!, 'large', fs.readFileSync(store.originalPath(pictured[1]!, 'large')));
    const changed = await run(`changed-${Date.now()}`);
    assert.deepEqual([changed.computed, changed.unchanged], [1, pictured.length - 1]);
  });
});

describe('bulkExport workflow', () => {
  it('writes every data set once with its progress, and again only what changed', async () => {
    const run = (stamp: string) =>
      client.workflow.execute(bulkExport, { args: [], taskQueue: TASK_QUEUE, workflowId: workflowIds.bulkExport(stamp) });
    const first = await run(`first-${Date.now()}`);
    const { rows } = await stack.stores.pg.pool.query<{ datasets: number; files: number }>(
      'SELECT count(DISTINCT dataset)::int AS datasets, count(*)::int AS files FROM bulk_files',
    );
    assert.ok(first.datasets_total >= 10, `catalogues, latest prices and months: ${first.datasets_total}`);
    assert.deepEqual(
      [first.datasets_done, rows[0]!.datasets, rows[0]!.files],
      [first.datasets_total, first.datasets_total, 3 * first.datasets_total],
    );
    assert.ok(first.rows > 0 && first.bytes > 0);
    const again = await run(`again-${Date.now()}`);
    assert.equal(again.datasets_total, 0, 'nothing changed, nothing written');
  });
});

describe('starts never pile up work (issue 34 §4)', () => {
  it('three starts at once run one bulk export and one recognition index update, through their schedules', async () => {
    const { ensureSchedules } = await import('../workflows/schedules.js');
    const { startBulkExport, startRecognitionIndex } = await import('../workflows/operations.js');
    await ensureSchedules(client, { pairs: feedPairs() });
    // Every data set to write again, so that the export is still running when the next start comes.
    await stack.stores.pg.pool.query('DELETE FROM bulk_files');
    const since = new Date().toISOString();
    await Promise.all([1, 2, 3].map(() => startBulkExport(client)));
    await Promise.all([1, 2, 3].map(() => startRecognitionIndex(client)));
    assert.equal(await runsSince('bulkExport', since), 1, 'one bulk export at a time');
    assert.equal(await runsSince('recognitionIndex', since), 1, 'one recognition index update at a time');
  });
});

describe('scrapeAll workflow', () => {
  const asOf = '2030-01-15';
  const count = async () =>
    Number(
      (
        await chRows<{ n: string }>(stack.stores.ch.client, `SELECT toString(count()) AS n FROM holo.price_points WHERE as_of = {d:Date}`, {
          d: asOf,
        })
      )[0]!.n,
    );

  it('ingests every feed from the mirror through the production connectors, exactly once', async () => {
    const pairs = feedPairs();
    await feeds.setDay(asOf);
    const handle = await client.workflow.start(scrapeAll, {
      args: [{ asOf, pairs, concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `${workflowIds.scrapeAll(asOf)}/${Date.now()}`,
    });
    const result = await handle.result();
    await record('scrapeAll', handle.workflowId);
    await record('ingestSource', `${handle.workflowId}/pokemontcg/pokemon`);
    assert.equal(result.failed, 0, JSON.stringify(result.failures));
    assert.equal(result.done, pairs.length);
    const progress = await handle.query(progressQuery);
    assert.equal(progress.done, pairs.length);
    const loaded = result.results.reduce((n, r) => n + r.loaded, 0);
    assert.ok(loaded > 5000);
    assert.equal(await count(), loaded);
    // A day that has not come yet (a feed published ahead) is stamped with the load time, not its noon.
    const [stamp] = await chRows<{ newest: string }>(
      stack.stores.ch.client,
      `SELECT toString(toUnixTimestamp64Milli(max(ingested_at))) AS newest FROM holo.price_points WHERE as_of = {d:Date}`,
      { d: asOf },
    );
    assert.ok(
      Number(stamp!.newest) <= Date.now() && Number(stamp!.newest) > Date.now() - 10 * 60_000,
      `ingested_at ${stamp!.newest} is the load time`,
    );

    // The value a reader sees is the feed's quote, computed here from the price model alone.
    const card = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-4'`)).rows[0];
    const base1 = (await FEED_PLANS.pokemontcg!(stack.stores.pg.pool, 'pokemon')).find((p) => p.id === 'base1-4')!;
    const market = base1.fields.find(([path]) => path === 'tcgplayer.prices.holofoil.market')![1];
    const expected = quoteAmount(market.quote, dayNumber(asOf));
    const unlimited = (
      await stack.stores.pg.pool.query(`SELECT id FROM variants WHERE external_key = 'pokemontcg:base1-4:en:unlimited:holofoil'`)
    ).rows[0];
    // The holofoil price is the unlimited printing's (the 1st Edition one has its own).
    assert.equal(market.variant.variant_id, unlimited.id);
    const [stored] = await chRows<{ amount: string }>(
      stack.stores.ch.client,
      `SELECT toString(p.amount) AS amount FROM holo.price_points AS p
       WHERE card_id = {c:UInt32} AND variant_id = {v:UInt32} AND source = 'tcgplayer' AND price_type = 'market' AND p.as_of = {d:Date}`,
      { c: card.id, v: unlimited.id, d: asOf },
    );
    assert.equal(Number(stored!.amount), expected);

    // Running the whole scrape again: the documents (bulk file, price guides, CSVs) cost a
    // conditional GET each; the paged APIs, which have no validators, are read again into the
    // same batches, whose deduplication tokens drop every row.
    const again = await client.workflow.execute(scrapeAll, {
      args: [{ asOf, pairs, concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `${workflowIds.scrapeAll(asOf)}/again-${Date.now()}`,
    });
    const documentFeeds = new Set(['scryfall', 'cardmarket', 'pricecharting']);
    assert.deepEqual(
      again.results.map((r) => `${r.source}/${r.game}:${r.status}`).sort(),
      pairs.map((p) => `${p.source}/${p.game}:${documentFeeds.has(p.source) ? 'not-modified' : 'loaded'}`).sort(),
    );
    for (const r of again.results.filter((r) => r.status === 'loaded'))
      assert.equal(r.batchId, result.results.find((f) => f.source === r.source && f.game === r.game)!.batchId, 'same content, same batch');
    assert.equal(await count(), loaded);
    // Forgetting the validators reads and loads every feed again: the deduplication tokens drop it all.
    await stack.stores.pg.pool.query('DELETE FROM feed_validators');
    const reloaded = await client.workflow.execute(scrapeAll, {
      args: [{ asOf, pairs, concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `${workflowIds.scrapeAll(asOf)}/reload-${Date.now()}`,
    });
    assert.equal(
      reloaded.results.reduce((n, r) => n + r.loaded, 0),
      loaded,
    );
    assert.equal(await count(), loaded);
  });

  it('reports a failing feed without stopping the others', async () => {
    const result = await client.workflow.execute(scrapeAll, {
      args: [{ asOf, pairs: [...feedPairs(), { source: 'pokemontcg', game: 'lorcana' }], concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `${workflowIds.scrapeAll(asOf)}/with-failure-${Date.now()}`,
    });
    assert.equal(result.failed, 1);
    assert.equal(result.done, feedPairs().length);
    // The failure names the reason itself, not "Activity task failed".
    assert.equal(result.failures[0]!.error, 'no pokemontcg feed for lorcana');
  });
});

describe('a feed refused by its upstream', () => {
  it("shows in the run detail with the source, the upstream's status and message and the variable to fix, attempted once", async () => {
    // A worker whose pokemontcg.io key and TCGplayer credentials are wrong: the mirror refuses them
    // as the upstreams do (403 for the key, 400 invalid_client at TCGplayer's token endpoint).
    const deps = activityDeps(stack.config, stack.stores);
    const wrong = (name: 'pokemontcg' | 'tcgplayer', credentials: Record<string, string>) => ({
      ...stack.config.upstreams[name],
      credentials,
    });
    await rig.startWorker({
      ...deps,
      upstreams: createUpstreams({
        ...stack.config.upstreams,
        pokemontcg: wrong('pokemontcg', { HOLO_POKEMONTCG_API_KEY: 'wrong-key' }),
        tcgplayer: wrong('tcgplayer', { HOLO_TCGPLAYER_CLIENT_ID: 'wrong-id', HOLO_TCGPLAYER_CLIENT_SECRET: 'wrong-secret' }),
      }),
    });
    try {
      const deps = await buildDeps({ ...stack.config, temporalAddress: temporal.address }, stack.stores, silent);
      const api = await startServer(deps, 0, '127.0.0.1');
      try {
        const token = fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim();
        const admin = <const Path extends string>(pathAndQuery: Path) =>
          jsonCall(api, 'GET', pathAndQuery, { headers: { Authorization: `Bearer ${token}` } });
        const pairs = [
          { source: 'pokemontcg', game: 'pokemon' },
          { source: 'tcgplayer', game: 'flesh-and-blood' },
          { source: 'cardmarket', game: 'mtg' },
        ];
        const workflowId = `${workflowIds.scrapeAll('2030-03-03')}/refused-${Date.now()}`;
        await client.workflow.execute(scrapeAll, {
          args: [{ asOf: '2030-03-03', pairs, concurrency: 2 }],
          taskQueue: TASK_QUEUE,
          workflowId,
        });
        const run = (await admin(`/api/admin/ingest/runs/${encodeURIComponent(workflowId)}`)).body;
        assert.equal(run.status, 'COMPLETED', JSON.stringify(run));
        const scrape = progressOf(run, 'results');
        assert.deepEqual([scrape.done, scrape.failed], [1, 2]);
        const failure = (source: string) => scrape.failures.find((f: { source: string }) => f.source === source)!.error;
        assert.match(
          failure('pokemontcg'),
          /^pokemontcg: HTTP 403 from \S+\/v2\/cards\S*: Forbidden: the API key is not valid; check HOLO_POKEMONTCG_API_KEY$/,
        );
        assert.match(
          failure('tcgplayer'),
          /^tcgplayer: HTTP 400 from \S+\/token: invalid_client; check HOLO_TCGPLAYER_CLIENT_ID and HOLO_TCGPLAYER_CLIENT_SECRET$/,
        );
        // Each refused feed's activity started once (its history's started event carries the attempt).
        for (const name of ['pokemontcg/pokemon', 'tcgplayer/flesh-and-blood']) {
          const events = (await client.workflow.getHandle(`${workflowId}/${name}`).fetchHistory()).events ?? [];
          assert.deepEqual(
            events.flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : [])),
            [1],
            `${name}: no retry of a refusal`,
          );
        }
      } finally {
        await api.close();
      }
    } finally {
      await rig.startWorker();
    }
  });
});

describe('schedules', () => {
  it('are created once, updated in place, and run scrapeAll every 6 hours and fxRates daily', async () => {
    const { ensureSchedules, SCHEDULE_IDS } = await import('../workflows/schedules.js');
    const opts = { pairs: feedPairs() };
    assert.deepEqual(await ensureSchedules(client, opts), [
      SCHEDULE_IDS.scrapeAll,
      SCHEDULE_IDS.fxRates,
      SCHEDULE_IDS.catalogueSync,
      SCHEDULE_IDS.dailyDigest,
      SCHEDULE_IDS.listingExpiry,
      SCHEDULE_IDS.recognitionIndex,
      SCHEDULE_IDS.bulkExport,
    ]);
    await ensureSchedules(client, opts);
    const scrape = await client.schedule.getHandle(SCHEDULE_IDS.scrapeAll).describe();
    assert.equal(scrape.spec.intervals?.[0]?.every, 6 * 3600 * 1000);
    const fx = await client.schedule.getHandle(SCHEDULE_IDS.fxRates).describe();
    assert.equal(fx.spec.intervals?.[0]?.every, 24 * 3600 * 1000);
    // A triggered run of the fx schedule really loads rates for its own day.
    await client.schedule.getHandle(SCHEDULE_IDS.fxRates).trigger();
    const day = new Date().toISOString().slice(0, 10);
    let n = 0;
    for (let i = 0; i < 100 && n === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      n = Number(
        (
          await chRows<{ n: string }>(
            stack.stores.ch.client,
            `SELECT toString(count()) AS n FROM holo.fx_rates WHERE source = 'ecb' AND day >= today() - 7`,
          )
        )[0]!.n,
      );
    }
    assert.ok(n > 0, `rates of the days before ${day} were loaded by the scheduled run`);
  });
});

describe('admin ingestion endpoints', () => {
  let api: RunningServer;
  let token: string;
  const call = <const Method extends string, const Path extends string>(
    method: Method,
    pathAndQuery: Path,
    opts: { body?: unknown; auth?: string | null } = {},
  ) => {
    const auth = opts.auth === undefined ? `Bearer ${token}` : opts.auth;
    return jsonCall(api, method, pathAndQuery, { body: opts.body, headers: auth ? { Authorization: auth } : {} });
  };
  before(async () => {
    // Warnings reach the test output: a 503 from Temporal logs its cause there.
    const deps = await buildDeps({ ...stack.config, temporalAddress: temporal.address }, stack.stores, createLogger('warn'));
    api = await startServer(deps, 0, '127.0.0.1');
    // No HOLO_ADMIN_TOKEN: the token was generated into the data directory, readable by its owner only.
    const file = path.join(stack.config.dataDir, 'admin-token');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    token = fs.readFileSync(file, 'utf8').trim();
  });
  after(async () => {
    await api?.close();
  });

  it('refuse callers without the operator token, and say so in the OpenAPI document', async () => {
    assert.equal((await call('GET', '/api/admin/ingest/runs', { auth: null })).status, 401);
    assert.equal((await call('GET', '/api/admin/ingest/runs', { auth: 'Bearer holo_admin_wrong' })).status, 401);
    const started = await call('POST', '/api/admin/ingest/runs', { auth: `Bearer ${token}x`, body: { kind: 'fx' } });
    assert.deepEqual([started.status, started.body], [401, { detail: 'Invalid or revoked API key' }]);
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as any;
    assert.deepEqual(doc.paths['/api/admin/ingest/runs'].post.security, [{ adminToken: [] }, { sessionCookie: [] }]);
    assert.equal(doc.components.securitySchemes.adminToken.scheme, 'bearer');
  });

  it('validate the run request in the 422 shape and start nothing', async () => {
    const before = (await call('GET', '/api/admin/ingest/runs?limit=200')).body.items.length;
    const missing = await call('POST', '/api/admin/ingest/runs', { body: {} });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.detail[0], { loc: ['body', 'kind'], msg: 'field required', type: 'value_error.missing' });
    const extra = await call('POST', '/api/admin/ingest/runs', { body: { kind: 'scrape', sorce: 'x' } });
    assert.deepEqual(extra.body.detail[0].loc, ['body', 'sorce']);
    assert.equal((await call('POST', '/api/admin/ingest/runs', { body: { kind: 'fx', source: 'ebay' } })).status, 422);
    assert.equal((await call('POST', '/api/admin/ingest/runs', { body: { kind: 'scrape', day: '2030-13-45' } })).status, 422);
    const unknownFeed = await call('POST', '/api/admin/ingest/runs', { body: { kind: 'scrape', source: 'nosuchfeed' } });
    assert.deepEqual([unknownFeed.status, unknownFeed.body.detail[0].loc], [422, ['body', 'source']]);
    const bad = await fetch(`${api.url}/api/admin/ingest/runs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"kind":',
    });
    // Not JSON at all: the route's own 422, at the body.
    assert.equal(bad.status, 422);
    assert.deepEqual(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc, ['body']);
    assert.equal((await call('GET', '/api/admin/ingest/runs?limit=200')).body.items.length, before);
  });

  it('start a scrape, report its progress and per-feed counts, and list it', async () => {
    await feeds.setDay('2030-03-01');
    const started = await call('POST', '/api/admin/ingest/runs', {
      body: { kind: 'scrape', source: 'scryfall', game: 'mtg', day: '2030-03-01' },
    });
    assert.equal(started.status, 202);
    assert.match(started.body.workflow_id, /^scrape-all\/2030-03-01\//);
    const path_ = `/api/admin/ingest/runs/${encodeURIComponent(started.body.workflow_id)}` as const;
    let run = (await call('GET', path_)).body;
    for (let i = 0; i < 300 && run.status === 'RUNNING'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await call('GET', path_)).body;
    }
    assert.equal(run.status, 'COMPLETED', JSON.stringify(run));
    const scrape = progressOf(run, 'results');
    assert.equal(scrape.done, 1);
    const feed = scrape.results[0]!;
    assert.deepEqual([feed.source, feed.game, feed.status], ['scryfall', 'mtg', 'loaded']);
    const [stored] = await chRows<{ n: string }>(
      stack.stores.ch.client,
      `SELECT toString(count()) AS n FROM holo.price_points WHERE source = 'scryfall' AND as_of = '2030-03-01'`,
    );
    assert.equal(feed.loaded, Number(stored!.n));
    assert.ok(feed.parsed >= feed.loaded && feed.loaded > 0);
    assert.deepEqual(Object.keys(feed.timings).sort(), ['fetch', 'insert', 'latest', 'map', 'outliers', 'parse', 'publish']);
    const listed = (await call('GET', '/api/admin/ingest/runs?limit=200')).body.items;
    assert.ok(listed.some((r: any) => r.workflow_id === started.body.workflow_id && r.type === 'scrapeAll' && r.status === 'COMPLETED'));
    assert.equal((await call('GET', `/api/admin/ingest/runs/${encodeURIComponent('scrape-all/1999-01-01/none')}`)).status, 404);
  });

  it("correlate one card's sources, or every card's, as a run with progress, and show the result on the card", async () => {
    const [target] = (
      await stack.stores.pg.pool.query(
        `SELECT c.id AS card_id, v.id AS variant_id FROM cards c JOIN games g ON g.id = c.game_id
         JOIN printings p ON p.card_id = c.id JOIN variants v ON v.printing_id = p.id
         WHERE g.slug = 'pokemon' ORDER BY c.id, v.id LIMIT 1`,
      )
    ).rows as { card_id: number; variant_id: number }[];
    // Three US sources on the newest days: two agree, one prices the card a hundred times higher.
    const points = ['2030-02-27', '2030-02-28', '2030-03-01'].flatMap((day) =>
      (
        [
          ['tcgplayer', 'market', '10.0000'],
          ['scryfall', 'market', '10.4000'],
          ['pricecharting', 'raw_us', '1000.0000'],
        ] as const
      ).map(([source, price_type, amount]) => ({
        card_id: target!.card_id,
        variant_id: target!.variant_id,
        game: 'pokemon',
        region: 'us' as const,
        source,
        price_type,
        grading_company: 'raw',
        grade: '',
        currency: 'USD',
        amount,
        as_of: day,
        observation_id: '',
        ingested_at: `${day} 12:00:00.000`,
        is_outlier: false,
        batch_id: 'correlation-test',
      })),
    );
    await insertPricePoints(stack.stores.ch.client, points);
    const finished = async (workflowId: string) => {
      const path_ = `/api/admin/ingest/runs/${encodeURIComponent(workflowId)}` as const;
      let run = (await call('GET', path_)).body;
      for (let i = 0; i < 300 && run.status === 'RUNNING'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        run = (await call('GET', path_)).body;
      }
      return run;
    };

    const one = await call('POST', `/api/price-intelligence/correlate/${target!.card_id}`);
    assert.equal(one.status, 202);
    assert.match(one.body.workflow_id, new RegExp(`^correlate/card-${target!.card_id}/`));
    const oneRun = await finished(one.body.workflow_id);
    assert.equal(oneRun.status, 'COMPLETED', JSON.stringify(oneRun));
    assert.deepEqual(oneRun.progress, {
      first_card: target!.card_id,
      last_card: target!.card_id,
      chunks_total: 1,
      chunks_done: 1,
      cards_correlated: 1,
      cards_disagreeing: 1,
    });
    const card = await jsonCall(api, 'GET', `/api/price-intelligence/card/${target!.card_id}`);
    assert.equal(card.status, 200);
    assert.deepEqual(
      [card.body.correlation!.consensus_usd, card.body.correlation!.agreeing_sources, card.body.correlation!.considered_sources],
      [10.4, 2, 3],
    );
    assert.deepEqual(
      card.body.correlation!.disagreeing.map((d: { source: string }) => d.source),
      ['pricecharting'],
    );
    assert.ok(
      card.body.correlation_notes.some((n: string) => /pricecharting sits 9515\.38 % above the consensus/.test(n)),
      card.body.correlation_notes.join('; '),
    );

    const all = await call('POST', '/api/price-intelligence/correlate');
    assert.equal(all.status, 202);
    const allRun = await finished(all.body.workflow_id);
    assert.equal(allRun.status, 'COMPLETED', JSON.stringify(allRun));
    const [bounds] = (await stack.stores.pg.pool.query(`SELECT min(id)::int AS lo, max(id)::int AS hi FROM cards`)).rows;
    const correlation = progressOf(allRun, 'cards_correlated');
    assert.deepEqual(
      [correlation.first_card, correlation.last_card, correlation.chunks_total, correlation.chunks_done],
      [bounds.lo, bounds.hi, Math.ceil((bounds.hi - bounds.lo + 1) / 2000), Math.ceil((bounds.hi - bounds.lo + 1) / 2000)],
    );
    assert.ok(correlation.cards_correlated >= 1 && correlation.cards_disagreeing >= 1);
    const [kept] = (await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM card_source_agreement`)).rows;
    assert.equal(kept.n, correlation.cards_correlated);

    assert.equal((await call('POST', '/api/price-intelligence/correlate/2147483647')).status, 404);
    assert.equal((await call('POST', '/api/price-intelligence/correlate/abc')).status, 422);
    assert.equal((await call('POST', '/api/price-intelligence/correlate', { auth: null })).status, 401);
  });

  it('catch up the days a stopped service missed, one scrape a day, with progress', async () => {
    assert.deepEqual(missingDays('2030-05-28', '2030-06-01'), ['2030-05-29', '2030-05-30', '2030-05-31']);
    assert.deepEqual(missingDays('2030-06-01', '2030-06-01'), []);
    const long = missingDays('2029-01-01', '2030-06-01');
    assert.deepEqual([long.length, long[0], long.at(-1)], [CATCH_UP_MAX_DAYS, '2030-05-02', '2030-05-31']);

    // TCGplayer's prices carry no date of their own: each day's scrape dates them by its day.
    const days = ['2030-06-10', '2030-06-11'];
    const workflowId = workflowIds.catchUp(days[0]!, days[1]!);
    await client.workflow.start(catchUp, {
      args: [{ days, pairs: [{ source: 'tcgplayer', game: 'flesh-and-blood' }] }],
      taskQueue: TASK_QUEUE,
      workflowId,
    });
    const path_ = `/api/admin/ingest/runs/${encodeURIComponent(workflowId)}` as const;
    let run = (await call('GET', path_)).body;
    for (let i = 0; i < 300 && run.status === 'RUNNING'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await call('GET', path_)).body;
    }
    assert.equal(run.status, 'COMPLETED', JSON.stringify(run));
    const catchUpProgress = progressOf(run, 'days_total');
    assert.deepEqual(
      [catchUpProgress.days_total, catchUpProgress.days_done, catchUpProgress.current, catchUpProgress.failed_feeds],
      [2, 2, null, 0],
    );
    const perDay = await chRows<{ day: string; n: string }>(
      stack.stores.ch.client,
      `SELECT toString(as_of) AS day, toString(count()) AS n FROM holo.price_points WHERE source = 'tcgplayer' AND game = 'flesh-and-blood' AND as_of IN ('2030-06-10', '2030-06-11') GROUP BY as_of ORDER BY as_of`,
    );
    assert.deepEqual(
      perDay.map((r) => r.day),
      days,
    );
    assert.equal(
      perDay.reduce((n, r) => n + Number(r.n), 0),
      catchUpProgress.loaded,
    );
    // Where a start would catch up from: the newest loaded market day.
    assert.deepEqual(await newestMarketDay(stack.stores.ch.client, {}), [{ day: '2030-06-11' }]);
  });

  it('pause and resume every schedule', async () => {
    const { ensureSchedules } = await import('../workflows/schedules.js');
    await ensureSchedules(client, { pairs: feedPairs() });
    const paused = await call('POST', '/api/admin/ingest/schedules/pause', { body: { note: 'feed maintenance' } });
    assert.equal(paused.status, 200);
    assert.ok(paused.body.items.length >= 3 && paused.body.items.every((s: any) => s.paused && s.note === 'feed maintenance'));
    const resumed = await call('POST', '/api/admin/ingest/schedules/resume', { body: {} });
    assert.ok(resumed.body.items.every((s: any) => !s.paused));
    assert.deepEqual(
      (await call('GET', '/api/admin/ingest/schedules')).body.items.map((s: any) => s.paused),
      resumed.body.items.map(() => false),
    );
  });

  it('show quarantined rows with their reasons', async () => {
    const batch = `admin-test/${Date.now()}`;
    await insertIngestRejects(
      stack.stores.ch.client,
      ['123', '124'].map((ref) => ({
        batch_id: batch,
        source: 'ebay',
        game: 'pokemon',
        ref,
        reason: 'sale without a price',
        rejected_at: '2030-03-01 12:00:00.000',
      })),
    );
    const res = await call('GET', `/api/admin/ingest/rejects?batch_id=${encodeURIComponent(batch)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items.map((r) => r.ref).sort(), ['123', '124']);
    assert.deepEqual(res.body.by_reason, [{ source: 'ebay', reason: 'sale without a price', rows: 2 }]);
    assert.equal((await call('GET', '/api/admin/ingest/rejects?limit=0')).status, 422);
  });

  it('answer 503 holo_ingestion_unavailable when Temporal is unreachable', async () => {
    const deps = await buildDeps({ ...stack.config, temporalAddress: `127.0.0.1:${await freePort()}` }, stack.stores, silent);
    const down = await startServer(deps, 0, '127.0.0.1');
    try {
      const res = await fetch(`${down.url}/api/admin/ingest/schedules`, { headers: { Authorization: `Bearer ${token}` } });
      assert.deepEqual([res.status, await res.json()], [503, { detail: 'holo_ingestion_unavailable' }]);
    } finally {
      await down.close();
    }
  });
});

describe('catalogueSync workflow', () => {
  it('syncs from the upstreams: a set released upstream appears, with every existing id kept', async () => {
    const cardIds = async () =>
      (await stack.stores.pg.pool.query(`SELECT external_key, id FROM cards ORDER BY id`)).rows as { external_key: string; id: number }[];
    const sync = async (day: string) =>
      client.workflow.execute(catalogueSync, { taskQueue: TASK_QUEUE, workflowId: `${workflowIds.catalogueSync(day)}/${Date.now()}` });
    const nothing = { sets: 0, cards: 0, printings: 0, variants: 0 };

    // The suite's mirror serves the seed's catalogue at the upstreams' paths: the production
    // connectors read back exactly what the seed imported.
    const idsBefore = await cardIds();
    assert.ok(idsBefore.length > 500);
    const same = await sync('2030-01-01');
    for (const game of ['pokemon', 'flesh-and-blood', 'lorcana', 'mtg']) {
      assert.deepEqual(same.added[game], nothing, game);
      assert.deepEqual(same.read[game], { cards: same.after[game]!.cards, variants: same.after[game]!.variants }, `${game}: read whole`);
    }
    assert.deepEqual(await cardIds(), idsBefore);

    // An upstream that has since released Jungle (base2): a mirror serving one more set.
    const jungle = JSON.parse(
      fs.readFileSync(path.join(stack.config.sharedDataDir, 'pokemon-tcg-data', 'cards', 'en', 'base2.json'), 'utf8'),
    );
    const released = await startFeedServer(stack.stores.pg.url, 0, {
      throttleEvery: 0,
      catalogue: { dataDir: stack.config.sharedDataDir, scope: 'small', extraPokemonSets: ['base2'] },
    });
    const upstreams = Object.fromEntries(Object.entries(stack.config.upstreams).map(([name, u]) => [name, { ...u, url: released.url }]));
    await rig.startWorker({
      ...activityDeps(stack.config, stack.stores),
      upstreams: createUpstreams(upstreams as typeof stack.config.upstreams),
    });
    try {
      const first = await sync('2030-01-02');
      assert.equal(first.added['pokemon']!.sets, 1);
      assert.equal(first.added['pokemon']!.cards, jungle.length);
      assert.ok(first.added['pokemon']!.printings >= jungle.length && first.added['pokemon']!.variants >= jungle.length);
      for (const game of ['flesh-and-blood', 'lorcana', 'mtg']) assert.deepEqual(first.added[game], nothing, game);
      const after = await cardIds();
      assert.deepEqual(after.slice(0, idsBefore.length), idsBefore, 'every existing card keeps its id');
      assert.equal(after.filter((c) => c.external_key.startsWith('pokemontcg:base2-')).length, jungle.length);
      // Nothing new upstream: a second sync adds nothing.
      const second = await sync('2030-01-03');
      assert.deepEqual(second.added['pokemon'], nothing);
    } finally {
      await rig.startWorker();
      await released.close();
    }
  });
});

describe('worker loss and replay', () => {
  it('finishes a run whose worker died mid-activity, with no row lost or doubled', async () => {
    const asOf = '2030-02-01';
    await feeds.setDay(asOf);
    // A second worker on the same queue, which dies while it holds a feed's activity. This process
    // cannot be killed (chDB lives in it), and a worker forced to stop keeps it alive, so the doomed
    // worker's feed activity holds its task until the worker goes and then abandons it unfinished,
    // as a crashed process would; every other activity is the real one. The attempt is then retried
    // on the suite's worker.
    const { NativeConnection, Worker } = await import('@temporalio/worker');
    const { Context } = await import('@temporalio/activity');
    const { createRequire } = await import('node:module');
    const doomedConnection = await NativeConnection.connect({ address: temporal.address });
    const doomed = await Worker.create({
      connection: doomedConnection,
      namespace: 'default',
      taskQueue: TASK_QUEUE,
      workflowsPath: createRequire(import.meta.url).resolve('../workflows/workflows.js'),
      activities: {
        ...createActivities(activityDeps(stack.config, stack.stores)),
        ingestPriceFeed: () => Context.current().cancelled,
      },
      identity: 'doomed-worker',
      shutdownGraceTime: '1 ms',
    });
    await rig.stopWorker();
    const doomedRun = doomed.run();
    const handle = await client.workflow.start(scrapeAll, {
      args: [{ asOf, pairs: feedPairs(), concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `kill-${Date.now()}`,
    });
    // Kill it once it holds a feed's activity: the server says the attempt is started, on the doomed
    // worker (the only one polling), and not finished.
    const child = `${handle.workflowId}/pokemontcg/pokemon`;
    const held = await until(
      'the doomed worker to hold the feed activity',
      async () => {
        const d = await client.workflowService
          .describeWorkflowExecution({ namespace: 'default', execution: { workflowId: child } })
          .catch(() => null);
        return d?.pendingActivities?.find((a) => a.state === proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED);
      },
      60_000,
    );
    assert.equal(held.lastWorkerIdentity, 'doomed-worker');
    doomed.shutdown();
    await doomedRun.catch(() => undefined);
    await doomedConnection.close();
    await rig.startWorker();
    const result = await handle.result();
    assert.equal(result.failed, 0, JSON.stringify(result.failures));
    // The doomed worker's attempt was lost: the feed's activity ended on a later attempt, elsewhere.
    const events = (await client.workflow.getHandle(child).fetchHistory()).events ?? [];
    // The feed's own activity (the analytics precompute that follows it is another).
    const feedActivity = new Set(
      events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'ingestPriceFeed').map((e) => String(e.eventId)),
    );
    const started = events.flatMap((e) =>
      e.activityTaskStartedEventAttributes && feedActivity.has(String(e.activityTaskStartedEventAttributes.scheduledEventId))
        ? [e.activityTaskStartedEventAttributes]
        : [],
    );
    const completed = events.flatMap((e) =>
      e.activityTaskCompletedEventAttributes && feedActivity.has(String(e.activityTaskCompletedEventAttributes.scheduledEventId))
        ? [e.activityTaskCompletedEventAttributes]
        : [],
    );
    assert.equal(feedActivity.size, 1);
    assert.equal(started.length, 1);
    assert.ok((started[0]!.attempt ?? 0) >= 2, `the feed's activity ended on attempt ${started[0]!.attempt}`);
    assert.deepEqual(
      completed.map((c) => c.identity === 'doomed-worker'),
      [false],
    );
    // Every series of the day once (its sort key, sales by their observation id), none twice.
    const day = async () =>
      (
        await chRows<{ n: string; series: string }>(
          stack.stores.ch.client,
          `SELECT toString(count()) AS n,
                  toString(uniqExact(card_id, variant_id, region, source, price_type, grading_company, grade, observation_id)) AS series
           FROM holo.price_points WHERE as_of = {d:Date}`,
          { d: asOf },
        )
      )[0]!;
    const stored = await day();
    assert.equal(stored.n, stored.series, 'no row stored twice');
    // A clean run of the same day (validators forgotten, so every feed is read and loaded again)
    // reports every row the feeds hold: the killed run had stored each of them.
    await stack.stores.pg.pool.query('DELETE FROM feed_validators');
    const clean = await client.workflow.execute(scrapeAll, {
      args: [{ asOf, pairs: feedPairs(), concurrency: 2 }],
      taskQueue: TASK_QUEUE,
      workflowId: `clean-${Date.now()}`,
    });
    const feedRows = clean.results.reduce((sum, r) => sum + r.loaded, 0);
    assert.ok(feedRows > 5000);
    assert.equal(Number(stored.series), feedRows, 'no row lost');
  });

  it('replays recorded histories deterministically', async () => {
    const { Worker } = await import('@temporalio/worker');
    const { createRequire } = await import('node:module');
    const workflowsPath = createRequire(import.meta.url).resolve('../workflows/workflows.js');
    const dir = path.join(repoRoot, 'test', 'fixtures', 'histories');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.history.bin'));
    assert.deepEqual(files.sort(), ['fxRates.history.bin', 'ingestSource.history.bin', 'scrapeAll.history.bin']);
    for (const f of files) {
      const history = proto.api.history.v1.History.decode(fs.readFileSync(path.join(dir, f)));
      assert.ok((history.events?.length ?? 0) > 5, f);
      const ids = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as Record<string, string>;
      await Worker.runReplayHistory({ workflowsPath }, history, ids[f]);
    }
  });
});

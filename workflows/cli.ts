// npm run ingest -- <command>: operator controls over Temporal.
//   run [--source S --game G] [--day D]   start a scrape (all feeds, or one) and follow its progress
//   status [workflowId]                   recent ingestion runs, or one run's progress and summary
//   schedules                             the schedules, their next runs and whether paused
//   pause | resume                        pause or resume every schedule
//   backfill --from D --to D              one scrapeAll per day, oldest first
//   catalogue | fx [--day D]              run catalogueSync or fxRates now and follow it
//   sources                               every upstream: URL, credentials set or not, last success, rows, freshness, last error
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../schemas/config.js';
import { IsoDate } from '../schemas/common.js';
import { ingestOperations, NoMatchingFeedError, type RunDetail } from './operations.js';
import type { ScrapeProgress } from './shared.js';

const config = loadConfig();
const ops = ingestOperations(config);
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    source: { type: 'string' },
    game: { type: 'string' },
    day: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
});
const [command, arg] = positionals;
const isDay = (d: string) => IsoDate.safeParse(d).success;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

type SourceItem = {
  source: string;
  url: string;
  on: boolean;
  credentials: { variable: string; present: boolean }[];
  feeds: { game: string; last_success_at: string | null; rows: number | null; freshness_s: number | null; last_error: string | null }[];
};

/** The sources report of the running API (GET /api/admin/ingest/sources), which knows the URLs in force. */
async function printSources(): Promise<void> {
  const tokenFile = path.join(config.dataDir, 'admin-token');
  const token = config.adminToken ?? (fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : '');
  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  let res: Response;
  try {
    res = await fetch(`${base}/api/admin/ingest/sources`, { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    fail(`cannot reach the API at ${base}: is Holo running (npm start)?`);
  }
  if (!res.ok) fail(`${base}/api/admin/ingest/sources answered ${res.status}: ${await res.text()}`);
  const { items } = (await res.json()) as { items: SourceItem[] };
  for (const s of items) {
    const creds = s.credentials.map((c) => `${c.variable} ${c.present ? 'set' : 'NOT SET'}`).join(', ') || 'none needed';
    process.stdout.write(`${s.source}: ${s.on ? 'on' : 'OFF'}  ${s.url}  (credentials: ${creds})\n`);
    for (const f of s.feeds)
      process.stdout.write(
        `  ${f.game}: last success ${f.last_success_at ?? 'never'}, rows ${f.rows ?? '-'}, checked ${f.freshness_s === null ? 'never' : `${f.freshness_s} s ago`}${f.last_error ? `, last error: ${f.last_error}` : ''}\n`,
      );
  }
}

if (command === 'sources') {
  await printSources();
  process.exit(0);
}

try {
  await ops.client();
} catch {
  fail(
    `cannot reach Temporal at ${config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`}: is Holo running (npm start), or TEMPORAL_ADDRESS set?`,
  );
}

function bar(p: ScrapeProgress): string {
  const width = 30;
  const filled = p.total ? Math.round(((p.done + p.failed) / p.total) * width) : width;
  const rows = p.results.reduce((n, r) => n + r.loaded, 0);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.done + p.failed}/${p.total} feeds, ${rows} rows loaded, ${p.failed} failed${p.running.length ? `; running ${p.running.join(', ')}` : ''}`;
}

function printSummary(p: ScrapeProgress): void {
  for (const r of p.results)
    process.stdout.write(
      `  ${r.source}/${r.game} ${r.asOf}: ${r.status}, parsed ${r.parsed}, loaded ${r.loaded}, flagged ${r.flagged} (${r.crossSourceFlagged ?? 0} against other sources), rejected ${r.rejected} (batch ${r.batchId})\n`,
    );
  for (const f of p.failures) process.stdout.write(`  ${f.source}/${f.game}: FAILED ${f.error}\n`);
}

const isScrape = (p: NonNullable<RunDetail['progress']>): p is ScrapeProgress => 'results' in p;

async function follow(workflowId: string): Promise<void> {
  let run: RunDetail;
  for (;;) {
    run = await ops.describe(workflowId);
    if (run.progress && isScrape(run.progress) && process.stdout.isTTY) process.stdout.write(`\r${bar(run.progress)}\x1b[K`);
    if (run.status !== 'RUNNING') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  printRun(run);
}

function printRun(run: RunDetail): void {
  process.stdout.write(
    `${process.stdout.isTTY && run.progress ? '\r' : ''}${run.workflow_id}: ${run.status}, started ${run.started_at}${run.closed_at ? `, closed ${run.closed_at}` : ''}\x1b[K\n`,
  );
  const progress = run.progress ?? (run.type === 'scrapeAll' ? (run.result as ScrapeProgress | null) : null);
  if (progress && isScrape(progress)) {
    process.stdout.write(`${bar(progress)}\n`);
    printSummary(progress);
  } else if (run.result) process.stdout.write(`${JSON.stringify(run.result, null, 2)}\n`);
  if (run.failure) process.stdout.write(`  FAILED: ${run.failure}\n`);
}

async function start(kind: 'scrape' | 'catalogue' | 'fx', day: string, suffix = ''): Promise<string> {
  try {
    const { workflow_id } = await ops.start({ kind, day, source: values.source, game: values.game, suffix });
    process.stdout.write(`started ${workflow_id}\n`);
    return workflow_id;
  } catch (err) {
    if (err instanceof NoMatchingFeedError) fail(err.message);
    throw err;
  }
}

switch (command) {
  case 'run':
  case 'catalogue':
  case 'fx': {
    const day = values.day ?? new Date().toISOString().slice(0, 10);
    if (!isDay(day)) fail('--day takes YYYY-MM-DD');
    await follow(await start(command === 'run' ? 'scrape' : command, day));
    break;
  }
  case 'status':
    if (arg) printRun(await ops.describe(arg));
    else
      for (const w of await ops.list(30))
        process.stdout.write(`${w.started_at}  ${w.status.padEnd(10)}  ${w.type.padEnd(13)}  ${w.workflow_id}\n`);
    break;
  case 'schedules':
    for (const s of await ops.schedules())
      process.stdout.write(
        `${s.id}: ${s.paused ? 'PAUSED' : 'active'}, every ${s.every_hours} h, next ${s.next_run_at ?? '-'}, runs so far ${s.runs_so_far}\n`,
      );
    break;
  case 'pause':
  case 'resume':
    for (const s of await ops.setPaused(command === 'pause', `${command}d by an operator (CLI)`))
      process.stdout.write(`${s.id}: ${s.paused ? 'paused' : 'active'}\n`);
    break;
  case 'backfill': {
    if (!values.from || !values.to || !isDay(values.from) || !isDay(values.to) || values.from > values.to)
      fail('backfill needs --from YYYY-MM-DD --to YYYY-MM-DD, from <= to');
    for (let t = Date.parse(`${values.from}T00:00:00Z`); t <= Date.parse(`${values.to}T00:00:00Z`); t += 86_400_000) {
      await follow(await start('scrape', new Date(t).toISOString().slice(0, 10), '-backfill'));
    }
    break;
  }
  default:
    fail(
      'usage: npm run ingest -- run [--source S --game G --day D] | catalogue | fx [--day D] | status [workflowId] | sources | schedules | pause | resume | backfill --from D --to D',
    );
}
await ops.close();

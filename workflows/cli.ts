// npm run ingest -- <command>: operator controls over Temporal.
//   run [--source S --game G] [--day D]   start a scrape (all feeds, or one) and follow its progress
//   status [workflowId]                   recent ingestion runs, or one run's progress and summary
//   schedules                             the schedules, their next runs and whether paused
//   pause | resume                        pause or resume both schedules
//   backfill --from D --to D              one scrapeAll per day, oldest first
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../api/core/config.js';
import { feedPairs } from '../ingest/sources/registry.js';
import { TASK_QUEUE, workflowIds } from './ids.js';
import { SCHEDULE_IDS } from './schedules.js';
import type { ScrapeProgress } from './workflows.js';

const config = loadConfig();
const address = config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`;
const feedsUrl = config.feedsUrl ?? `http://127.0.0.1:${config.feedsPort}`;
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { source: { type: 'string' }, game: { type: 'string' }, day: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
});
const [command, arg] = positionals;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let connection: Connection;
try {
  connection = await Connection.connect({ address, connectTimeout: '5 seconds' });
} catch {
  fail(`cannot reach Temporal at ${address}: is Holo running (npm start), or TEMPORAL_ADDRESS set?`);
}
const client = new Client({ connection, namespace: config.temporalNamespace });

function bar(p: ScrapeProgress): string {
  const width = 30;
  const filled = p.total ? Math.round(((p.done + p.failed) / p.total) * width) : width;
  const rows = p.results.reduce((n, r) => n + r.loaded, 0);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.done + p.failed}/${p.total} feeds, ${rows} rows loaded, ${p.failed} failed${p.running.length ? `; running ${p.running.join(', ')}` : ''}`;
}

function printSummary(p: ScrapeProgress): void {
  for (const r of p.results)
    process.stdout.write(`  ${r.source}/${r.game} ${r.asOf}: ${r.status}, parsed ${r.parsed}, loaded ${r.loaded}, flagged ${r.flagged}, rejected ${r.rejected} (batch ${r.batchId})\n`);
  for (const f of p.failures) process.stdout.write(`  ${f.source}/${f.game}: FAILED ${f.error}\n`);
}

async function follow(workflowId: string): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  const result = handle.result();
  let done = false;
  void result.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    const p = await handle.query<ScrapeProgress>('progress').catch(() => null);
    if (p && process.stdout.isTTY) process.stdout.write(`\r${bar(p)}\x1b[K`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const final = (await result) as ScrapeProgress;
  process.stdout.write(`${process.stdout.isTTY ? '\r' : ''}${bar(final)}\x1b[K\n`);
  printSummary(final);
}

async function startScrape(day: string, pairs: { source: string; game: string }[], suffix = ''): Promise<string> {
  const workflowId = `${workflowIds.scrapeAll(day)}/manual-${Date.now()}${suffix}`;
  await client.workflow.start('scrapeAll', { args: [{ asOf: day, feedsUrl, pairs, concurrency: 2 }], taskQueue: TASK_QUEUE, workflowId });
  return workflowId;
}

switch (command) {
  case 'run': {
    const day = values.day ?? new Date().toISOString().slice(0, 10);
    if (!DAY.test(day)) fail('--day takes YYYY-MM-DD');
    const pairs = feedPairs().filter((p) => (!values.source || p.source === values.source) && (!values.game || p.game === values.game));
    if (pairs.length === 0) fail(`no feed matches; feeds: ${feedPairs().map((p) => `${p.source}/${p.game}`).join(', ')}`);
    const id = await startScrape(day, pairs);
    process.stdout.write(`started ${id}\n`);
    await follow(id);
    break;
  }
  case 'status': {
    if (arg) {
      const handle = client.workflow.getHandle(arg);
      const d = await handle.describe();
      process.stdout.write(`${arg}: ${d.status.name}, started ${d.startTime.toISOString()}${d.closeTime ? `, closed ${d.closeTime.toISOString()}` : ''}\n`);
      const p = await handle.query<ScrapeProgress>('progress').catch(() => null);
      if (p) {
        process.stdout.write(`${bar(p)}\n`);
        printSummary(p);
      }
    } else {
      for await (const w of client.workflow.list({ query: `WorkflowType = 'scrapeAll' OR WorkflowType = 'fxRates'` })) {
        process.stdout.write(`${w.startTime.toISOString()}  ${w.status.name.padEnd(10)}  ${w.type.padEnd(10)}  ${w.workflowId}\n`);
      }
    }
    break;
  }
  case 'schedules':
    for (const id of Object.values(SCHEDULE_IDS)) {
      const d = await client.schedule.getHandle(id).describe();
      const next = d.info.nextActionTimes[0]?.toISOString() ?? '-';
      process.stdout.write(`${id}: ${d.state.paused ? 'PAUSED' : 'active'}, every ${(d.spec.intervals?.[0]?.every ?? 0) / 3_600_000} h, next ${next}, runs so far ${d.info.numActionsTaken}\n`);
    }
    break;
  case 'pause':
  case 'resume':
    for (const id of Object.values(SCHEDULE_IDS)) {
      const handle = client.schedule.getHandle(id);
      if (command === 'pause') await handle.pause('paused by an operator');
      else await handle.unpause('resumed by an operator');
      process.stdout.write(`${id}: ${command}d\n`);
    }
    break;
  case 'backfill': {
    if (!values.from || !values.to || !DAY.test(values.from) || !DAY.test(values.to) || values.from > values.to) fail('backfill needs --from YYYY-MM-DD --to YYYY-MM-DD, from <= to');
    for (let t = Date.parse(`${values.from}T00:00:00Z`); t <= Date.parse(`${values.to}T00:00:00Z`); t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      process.stdout.write(`${day}\n`);
      await follow(await startScrape(day, feedPairs(), '-backfill'));
    }
    break;
  }
  default:
    fail('usage: npm run ingest -- run [--source S --game G --day D] | status [workflowId] | schedules | pause | resume | backfill --from D --to D');
}
await connection.close();

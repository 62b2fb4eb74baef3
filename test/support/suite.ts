// Runs test files in parallel (each in `node --test` of its own), prints each file's output whole
// when it ends, and at the end a table of every file's wall time, slowest first. Files start
// slowest-first by the times of the last run on this machine (kept beside the tool cache), so the
// two workers finish together instead of one waiting on a long file started last.
//
// Each run has a folder of stack templates (test/support/stackTemplate.ts): the first stack of a
// kind is built once and the others start from copies; the folder goes when the run ends.
//
// With --only server, just the files test/support/serverPass.ts lists for the server pass; either
// way every file must be in exactly one of its lists.
//
//   node dist/test/support/suite.js --label "pass 1" [--concurrency 2] [--timeout 900000] [--only server] files…
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCacheDir } from '../../sql/runtime/toolCache.js';
import { EMBEDDED_ONLY, SERVER_PASS } from './serverPass.js';

type Outcome = { file: string; ms: number; code: number | null };

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const label = option('label', 'suite');
const concurrency = Number(option('concurrency', '2'));
const timeout = option('timeout', '900000');
const only = option('only', 'all');
const named = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));

const timesFile = path.join(toolCacheDir(), 'test-times.json');
const previous: Record<string, number> = (() => {
  try {
    return JSON.parse(fs.readFileSync(timesFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
})();
const name = (file: string) => path.basename(file).replace(/\.js$/, '');

const testDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const existing = new Set(
  fs
    .readdirSync(testDir)
    .filter((f) => f.endsWith('.test.js'))
    .map(name),
);
// Files by path, or by name (`stores`, `stores.test`); none: every file.
const given = named.length
  ? named.map((a) => (a.endsWith('.js') ? a : path.join(testDir, `${a.replace(/\.test$/, '')}.test.js`)))
  : [...existing].map((n) => path.join(testDir, `${n}.js`));
const missing = given.filter((f) => !fs.existsSync(f));
if (missing.length) {
  console.error(`no such test file: ${missing.join(', ')}`);
  process.exit(1);
}
const gone = [...Object.keys(SERVER_PASS), ...Object.keys(EMBEDDED_ONLY)].filter((n) => !existing.has(n));
const unplaced = given.map(name).filter((n) => n in SERVER_PASS === n in EMBEDDED_ONLY);
if (unplaced.length || gone.length) {
  const problems = [...unplaced.map((n) => `${n} (in neither or both)`), ...gone.map((n) => `${n} (no such file)`)];
  console.error(`test/support/serverPass.ts must place every test file in exactly one list: ${problems.join(', ')}`);
  process.exit(1);
}
const files = only === 'server' ? given.filter((f) => name(f) in SERVER_PASS) : given;
const key = (file: string) => `${label}: ${name(file)}`;
const queue = [...files].sort((a, b) => (previous[key(b)] ?? 60_000) - (previous[key(a)] ?? 60_000));

const templates = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-templates-'));
fs.chmodSync(templates, 0o755);

function runFile(file: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-timeout=${timeout}`, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOLO_TEST_TEMPLATES: templates },
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(output));
      resolve({ file, ms: Date.now() - started, code });
    });
  });
}

const outcomes: Outcome[] = [];
const started = Date.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) outcomes.push(await runFile(file));
  }),
);

fs.rmSync(templates, { recursive: true, force: true });

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
outcomes.sort((a, b) => b.ms - a.ms);
const work = outcomes.reduce((sum, o) => sum + o.ms, 0);
console.log(`\n== ${label}: wall time per test file, slowest first (${concurrency} at a time)`);
for (const o of outcomes) console.log(`${seconds(o.ms)} s  ${o.code === 0 ? 'ok  ' : 'FAIL'}  ${name(o.file)}`);
console.log(`${seconds(Date.now() - started)} s  wall clock, ${seconds(work).trim()} s of work in ${outcomes.length} files`);

fs.mkdirSync(path.dirname(timesFile), { recursive: true });
fs.writeFileSync(timesFile, JSON.stringify({ ...previous, ...Object.fromEntries(outcomes.map((o) => [key(o.file), o.ms])) }));
const failed = outcomes.filter((o) => o.code !== 0);
if (failed.length) {
  console.log(`${failed.length} file(s) failed: ${failed.map((o) => name(o.file)).join(', ')}`);
  process.exit(1);
}

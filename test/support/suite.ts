// Runs test files in parallel (each in `node --test` of its own), prints each file's output whole
// when it ends, and at the end a table of every file's wall time, slowest first. Files start
// slowest-first by the times of the last run on this machine (kept beside the tool cache), so the
// two workers finish together instead of one waiting on a long file started last.
//
//   node dist/test/support/suite.js --label "pass 1" [--concurrency 2] [--timeout 900000] files…
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { toolCacheDir } from '../../sql/runtime/toolCache.js';

type Outcome = { file: string; ms: number; code: number | null };

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const label = option('label', 'suite');
const concurrency = Number(option('concurrency', '2'));
const timeout = option('timeout', '900000');
const files = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));

const timesFile = path.join(toolCacheDir(), 'test-times.json');
const previous: Record<string, number> = (() => {
  try {
    return JSON.parse(fs.readFileSync(timesFile, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
})();
const name = (file: string) => path.basename(file).replace(/\.js$/, '');
const key = (file: string) => `${label}: ${name(file)}`;
const queue = [...files].sort((a, b) => (previous[key(b)] ?? 60_000) - (previous[key(a)] ?? 60_000));

function runFile(file: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-timeout=${timeout}`, file], { stdio: ['ignore', 'pipe', 'pipe'] });
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

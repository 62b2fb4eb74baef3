// What the benchmarks share: child processes that print one line when ready (a ceiling, the load
// generator), a process's CPU time, and one load run in the generator's own process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** From the first request sent to the last answer read. */
  wallSeconds: number;
  non2xx: number;
  errors: number;
};

/** A script of this folder in a child process, and its first line on stdout. */
export function runChild(script: string, args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [path.join(here, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return { child, firstLine };
}

/** CPU time of a process in microseconds: this process from cpuUsage, another from /proc. */
export function cpuMicros(pid?: number): number {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return u.user + u.system;
  }
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime, in 1/100 s ticks
}

/** One load run (autocannon in its own process) over the paths, round robin. */
export async function loadOnly(
  url: string,
  paths: string[],
  connections: number,
  opts: { duration: number; amount?: number; accept?: string; headers?: Record<string, string> },
): Promise<LoadResult> {
  // The job goes through a file: tens of thousands of paths do not fit in argv.
  const jobFile = path.join(os.tmpdir(), `holo-bench-job-${process.pid}.json`);
  fs.writeFileSync(
    jobFile,
    JSON.stringify({ url, paths, connections, duration: opts.duration, amount: opts.amount, accept: opts.accept, headers: opts.headers }),
  );
  const { firstLine } = runChild('load.js', [jobFile]);
  try {
    return JSON.parse(await firstLine) as LoadResult;
  } finally {
    fs.rmSync(jobFile, { force: true });
  }
}

// A benchmark whose measurement is invalid (errors, non-2xx answers, lost messages, empty samples)
// says why and exits non-zero, whatever its figures: a goal "met" by a run that lost half its
// answers is no result. Each benchmark reports its problems here and ends with finish().
const invalidReasons: string[] = [];

/** Records why the measurement cannot be trusted, and prints it where it happened. */
export function invalid(why: string): void {
  invalidReasons.push(why);
  console.log(`  INVALID: ${why}`);
}

/** The load run, after recording as invalid one with no completed request, a non-2xx answer or an error. */
export function checkLoad<T extends LoadResult>(name: string, r: T): T {
  if (r.requests === 0) invalid(`${name}: no request completed`);
  if (r.non2xx > 0) invalid(`${name}: ${r.non2xx} non-2xx answers of ${r.requests}`);
  if (r.errors > 0) invalid(`${name}: ${r.errors} errors or timeouts`);
  return r;
}

/** The q-quantile of an ascending sample; an empty sample is recorded as invalid and gives NaN, never -Infinity. */
export function quantileOf(sorted: number[], q: number, what: string): number {
  if (sorted.length === 0) {
    invalid(`${what}: no samples`);
    return NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** "meets goal" only for a valid measurement that meets it. */
export function goal(ok: boolean): string {
  return invalidReasons.length > 0 ? 'INVALID measurement (see below)' : ok ? 'meets goal' : 'MISSES goal';
}

/**
 * Ends the benchmark: exit 0, or exit 1 after listing every reason the measurement is invalid, or
 * every goal it missed (`missed`, for the benchmarks that fail on a missed goal).
 */
export function finish(missed: string[] = []): never {
  if (missed.length) console.log(`\nGOALS MISSED: ${missed.join('; ')}`);
  if (invalidReasons.length === 0) process.exit(missed.length ? 1 : 0);
  console.log(`\nINVALID MEASUREMENT: ${invalidReasons.length} problem(s), the figures above are not a result:`);
  for (const why of invalidReasons) console.log(`  - ${why}`);
  process.exit(1);
}

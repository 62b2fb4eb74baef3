// What the benchmarks share: child processes that print one line when ready (a ceiling, the load
// generator), a process's CPU time, and one load run in the generator's own process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export type LoadResult = { rps: number; p50: number; p99: number; requests: number; non2xx: number; errors: number };

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

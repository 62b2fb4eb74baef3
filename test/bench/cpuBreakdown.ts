// Where a benchmark's server CPU goes, per request: this process (the API, in the benchmark's own
// process) and the embedded PostgreSQL server, from the kernel's counters; this process's CPU split
// by what it was doing, from a V8 CPU profile of the run (self time by the code's origin).
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

/**
 * CPU seconds so far of the embedded PostgreSQL of `dataDir`: its postmaster and the postmaster's
 * children, with the children it has reaped (a backend that ended in between). NaN without an
 * embedded server (DATABASE_URL set). Other PostgreSQL servers on the machine are not counted.
 */
export function postgresCpuSeconds(dataDir: string): number {
  const tick = 100; // USER_HZ on Linux
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return Number.NaN;
  const postmaster = fs.readFileSync(pidFile, 'utf8').split('\n')[0]!.trim();
  let seconds = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command: state, ppid, …, utime (11), stime (12), cutime (13), cstime (14).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (pid === postmaster) seconds += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / tick;
      else if (fields[1] === postmaster) seconds += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      // the process ended between listing and reading
    }
  }
  return seconds;
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** What a profile sample was doing, by the origin of the function it was in. */
export const CPU_PARTS = [
  'garbage collection',
  'socket writes (the kernel wakes PostgreSQL or the client)',
  'PostgreSQL client (pg)',
  'zod (rows and answers parsed)',
  'HTTP (node:http, Koa, router)',
  'precomputed answers (read, cut)',
  'services, presenters, cache',
  'the benchmark (profiler, starting the load process)',
  'other',
] as const;
type Part = (typeof CPU_PARTS)[number];

function partOf(frame: ProfileNode['callFrame']): Part | 'idle' {
  const { functionName: name, url } = frame;
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collection';
  if (url === '' && /^write(v|Buffer|Utf8String|Latin1String)?$/.test(name))
    return 'socket writes (the kernel wakes PostgreSQL or the client)';
  // node:inspector's dispatch (the profiler answering), spawn (the load generator's process).
  if (url === '' && (name === 'dispatch' || name === 'spawn')) return 'the benchmark (profiler, starting the load process)';
  if (/node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(url)) return 'PostgreSQL client (pg)';
  if (url.includes('node_modules/zod/')) return 'zod (rows and answers parsed)';
  if (/node_modules\/(koa|@koa|koa-[a-z]+)\//.test(url) || url.startsWith('node:_http') || url === 'node:http')
    return 'HTTP (node:http, Koa, router)';
  if (/dist\/(api\/legacy\/precomputedAnalytics|sql\/cardAnalytics)\.js$/.test(url)) return 'precomputed answers (read, cut)';
  if (url.includes('/dist/')) return 'services, presenters, cache';
  return 'other';
}

/**
 * Each part's share of the profile's busy samples (idle left out). Samples are taken on wall time,
 * so on a busy machine they also count time the process waited for a core: shares, not times.
 */
function sharesOf(profile: Profile): Map<Part, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parts = new Map<Part, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const part = partOf(byId.get(profile.samples[i]!)!.callFrame);
    if (part === 'idle') continue;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    busy += ms;
    parts.set(part, (parts.get(part) ?? 0) + ms);
  }
  for (const [part, ms] of parts) parts.set(part, busy > 0 ? ms / busy : 0);
  return parts;
}

export type CpuBreakdown = {
  /** This process's CPU per request (kernel counters), ms. */
  holoMs: number;
  /** The embedded PostgreSQL's CPU per request, ms (NaN without one). */
  postgresMs: number;
  /** This process's CPU per request by part (its profile's shares of holoMs), ms; empty when not profiled. */
  parts: Map<Part, number>;
  /** The profile, written for Chrome DevTools or `node --cpu-prof` tools. */
  profileFile?: string;
};

/** Runs `work` (which answers `requests` requests) and measures the server's CPU per request. */
export async function cpuPerRequest<T extends { requests: number }>(
  dataDir: string,
  /** A file to write the run's CPU profile to; none: not profiled. */
  profileFile: string | undefined,
  work: () => Promise<T>,
): Promise<T & { cpu: CpuBreakdown }> {
  const session = profileFile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const own = process.cpuUsage();
  const postgres = postgresCpuSeconds(dataDir);
  const result = await work();
  const used = process.cpuUsage(own);
  const postgresSeconds = postgresCpuSeconds(dataDir) - postgres;
  const n = Math.max(1, result.requests);
  const holoMs = (used.user + used.system) / 1000 / n;
  const parts = new Map<Part, number>();
  if (session && profileFile) {
    const { profile: taken } = await session.post('Profiler.stop');
    session.disconnect();
    fs.writeFileSync(profileFile, JSON.stringify(taken));
    for (const [part, share] of sharesOf(taken as unknown as Profile)) parts.set(part, share * holoMs);
  }
  return { ...result, cpu: { holoMs, postgresMs: (postgresSeconds * 1000) / n, parts, profileFile } };
}

/** "Holo 2.9 ms (garbage collection 1.2, …), PostgreSQL 0.6 ms" for one run. */
export function breakdownText(cpu: CpuBreakdown): string {
  const parts = [...cpu.parts]
    .sort((a, b) => b[1] - a[1])
    .map(([part, ms]) => `${part} ${ms.toFixed(2)}`)
    .join(', ');
  return `Holo ${cpu.holoMs.toFixed(2)} ms${parts ? ` (${parts})` : ''}, PostgreSQL ${cpu.postgresMs.toFixed(2)} ms${cpu.profileFile ? `; profile ${cpu.profileFile}` : ''}`;
}

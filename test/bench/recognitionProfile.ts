// npm run bench:recognition-profile: where recognition's time goes, photo by photo, on the second
// generator's tuning part (never the held-out part) and the first generator's photos, in this
// process against the harness's index (recognitionHarness.ts). For each set: top-1, top-5 and the
// wrong answers at confidence ≥ 0.9; the decode and the recognition's wall and CPU time (the
// process's: CPU time is the steadier measure on a shared machine); and each stage of the search
// (recognisePhoto's own marks) at p50/p90/p99 over the photos that reach it, its search work (the
// finder, side placement and shifts: the time not spent waiting on passes) and passes, and what the
// slowest 5 % spend in each. Options:
//   --sets tuning,old    the sets, in turn (BENCH_PHOTOS photos each, default 150; --from the first)
//   --threads N          passes on N recognition threads as a served instance runs them (default 0: here)
//   --only FILE          only the photos it lists (a line each: set:photo), e.g. those a change can affect
//   --answers FILE       writes each photo's answer (top five, confidence, passes) as JSON
//   --compare FILE       lists the photos whose answer differs from that file's
import fs from 'node:fs';
import os from 'node:os';
import { openCv } from '../../ingest/recognition/opencv.js';
import { RecognitionThreads } from '../../ingest/recognition/passWorkers.js';
import { decodePhoto } from '../../ingest/recognition/photo.js';
import { recognisePhoto, type StageTime } from '../../ingest/recognition/recognise.js';
import { harnessIndex, sample, type PhotoSet } from './recognitionHarness.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const sets = option('sets', 'tuning,old').split(',') as PhotoSet[];
for (const set of sets)
  if (set !== 'tuning' && set !== 'old') throw new Error('--sets of tuning and old (the held-out part is for the final report only)');
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 150);
const FIRST = Number(option('from', '0'));
const THREADS = Number(option('threads', '0'));
const answersFile = option('answers', '');
const compareFile = option('compare', '');
const onlyFile = option('only', '');
const only = onlyFile ? new Set(fs.readFileSync(onlyFile, 'utf8').split(/\s+/).filter(Boolean)) : null;

type Answer = { set: PhotoSet; photo: number; top: number[]; confidence: number; passes: number };
type Profile = { photo: number; decodeMs: number; ms: number; cpuMs: number; threadMs: number; stages: StageTime[] };

/**
 * This thread's CPU time in ms (Linux's scheduler statistics, in nanoseconds), or NaN elsewhere:
 * process CPU time also counts V8's collector and compiler threads, so on one thread this is the
 * search's own work.
 */
const threadCpu = (): number => {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
};

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const spread = (xs: number[]) => `${[50, 90, 99].map((p) => percentile(xs, p).toFixed(0)).join('/')}`;

const cv = await openCv();
const index = await harnessIndex(cv);
const threads = THREADS > 0 ? new RecognitionThreads(THREADS) : undefined;
await threads?.started();
const answers: Answer[] = [];
try {
  for (const set of sets) {
    const profiles: Profile[] = [];
    let top1 = 0;
    let top5 = 0;
    let confident = 0;
    let confidentWrong = 0;
    const loads: number[] = [];
    for (let i = FIRST; i < FIRST + PHOTOS; i++) {
      if (only && !only.has(`${set}:${i}`)) continue;
      const s = await sample(set, i);
      let t = performance.now();
      const photo = await decodePhoto(s.jpeg);
      const decodeMs = performance.now() - t;
      if ('refused' in photo) throw new Error(`photo ${i} refused: ${photo.refused}`);
      const cpu = process.cpuUsage();
      const own = threadCpu();
      t = performance.now();
      const result = await recognisePhoto(cv, index, photo, threads);
      const ms = performance.now() - t;
      const threadMs = threadCpu() - own;
      const used = process.cpuUsage(cpu);
      profiles.push({ photo: i, decodeMs, ms, cpuMs: (used.user + used.system) / 1000, threadMs, stages: result.stages });
      const top = result.candidates.map((c) => c.cardId);
      const confidence = result.best?.match.confidence ?? 0;
      answers.push({ set, photo: i, top, confidence: Math.round(confidence * 1000) / 1000, passes: result.passes });
      if (top[0] === s.cardId) top1++;
      if (top.slice(0, 5).includes(s.cardId)) top5++;
      if (confidence >= 0.9) {
        confident++;
        if (top[0] !== s.cardId) confidentWrong++;
      }
      loads.push(os.loadavg()[0]!);
    }
    const n = profiles.length;
    console.log(
      `${set}: ${n} photos from ${FIRST}${only ? ` (those --only lists)` : ''}, ${THREADS ? `${THREADS} recognition threads` : 'passes on this thread'}, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(`  top-1 ${(top1 / n).toFixed(3)}, top-5 ${(top5 / n).toFixed(3)}, confident ${confident}, wrong ${confidentWrong}`);
    console.log(
      `  decode p50/p90/p99 ${spread(profiles.map((p) => p.decodeMs))} ms; recognition wall ${spread(profiles.map((p) => p.ms))} ms, CPU ${spread(profiles.map((p) => p.cpuMs))} ms (this thread's ${spread(profiles.map((p) => p.threadMs))}); passes ${spread(profiles.map((p) => p.stages.reduce((sum, s) => sum + s.passes, 0)))}`,
    );
    const slowest = [...profiles].sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, Math.ceil(0.05 * n)));
    const slowestCpu = [...profiles].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, slowest.length);
    const stageNames = [...new Set(profiles.flatMap((p) => p.stages.map((s) => s.stage)))];
    // Each stage over the photos that reach it; then what the slowest 5 % (by wall time, and by
    // CPU time) spend in it, averaged over those photos.
    const columns = [
      'stage',
      'reach',
      'wall p50/p90/p99',
      'CPU p50/p90/p99',
      'search p50/p99',
      'passes mean/max',
      'slowest: wall',
      'CPU',
      'passes',
      'slowest by CPU: CPU',
    ];
    const rows = stageNames.map((stage) => {
      const of = (ps: Profile[]) => ps.flatMap((p) => p.stages.filter((s) => s.stage === stage));
      const all = of(profiles);
      const search = all.map((s) => s.ms - s.passMs);
      const slowMean = (ps: Profile[], field: 'ms' | 'cpuMs' | 'passes') => of(ps).reduce((sum, s) => sum + s[field], 0) / ps.length;
      return [
        stage,
        `${((100 * all.length) / n).toFixed(0)} %`,
        spread(all.map((s) => s.ms)),
        spread(all.map((s) => s.cpuMs)),
        `${percentile(search, 50).toFixed(0)}/${percentile(search, 99).toFixed(0)}`,
        `${(all.reduce((sum, s) => sum + s.passes, 0) / all.length).toFixed(1)}/${Math.max(...all.map((s) => s.passes))}`,
        slowMean(slowest, 'ms').toFixed(0),
        slowMean(slowest, 'cpuMs').toFixed(0),
        slowMean(slowest, 'passes').toFixed(1),
        slowMean(slowestCpu, 'cpuMs').toFixed(0),
      ];
    });
    const widths = columns.map((c, k) => Math.max(c.length, ...rows.map((r) => r[k]!.length)));
    for (const row of [columns, ...rows]) console.log(`  ${row.map((cell, k) => cell.padEnd(widths[k]!)).join('  ')}`);
    console.log(
      `  slowest: ${slowest
        .slice(0, 5)
        .map((p) => `${p.photo} ${p.ms.toFixed(0)} ms (${p.stages.map((s) => `${s.stage} ${s.ms.toFixed(0)}/${s.passes}`).join(' ')})`)
        .join('; ')}`,
    );
  }
} finally {
  await threads?.close();
}
if (answersFile) fs.writeFileSync(answersFile, JSON.stringify(answers));
if (compareFile) {
  const before = new Map((JSON.parse(fs.readFileSync(compareFile, 'utf8')) as Answer[]).map((a) => [`${a.set}:${a.photo}`, a]));
  const differ = answers.filter((a) => {
    const b = before.get(`${a.set}:${a.photo}`);
    return b && (b.top.join() !== a.top.join() || b.confidence !== a.confidence);
  });
  const passes = (of: (a: Answer) => number) => answers.reduce((sum, a) => sum + of(a), 0);
  console.log(
    `against ${compareFile}: ${differ.length} of ${answers.length} answers differ; passes ${passes((a) => before.get(`${a.set}:${a.photo}`)?.passes ?? 0)} → ${passes((a) => a.passes)}`,
  );
  for (const a of differ.slice(0, 30)) {
    const b = before.get(`${a.set}:${a.photo}`)!;
    console.log(`  ${a.set} ${a.photo}: ${b.top.join(',')} at ${b.confidence} → ${a.top.join(',')} at ${a.confidence}`);
  }
}

// Summarises a V8 CPU profile (node --cpu-prof): the functions with the most self time within a
// window of the process's life, as "share  function  file:line" lines. Idle time is left out of
// the shares (it is waiting, not work) and reported on its own.
import fs from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** Top frames by self time between window[0] and window[1] milliseconds after the profile began. */
export function topSelfFrames(file: string, window: [number, number], count: number): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let at = 0;
  let idle = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at / 1000 < window[0] || at / 1000 > window[1]) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += delta;
      return;
    }
    busy += delta;
    const where = frame.url
      ? ` ${frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^node:/, 'node:')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'}${where}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  const lines = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, us]) => `${((us / Math.max(1, busy)) * 100).toFixed(1).padStart(5)} %  ${key}`);
  return [...lines, `(busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms in the window)`];
}

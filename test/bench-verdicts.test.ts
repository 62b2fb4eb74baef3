// The benchmarks' verdicts: a measurement with errors, non-2xx answers, lost messages or empty
// samples says why and exits non-zero (never "meets goal"); the PostgreSQL twins are compared with
// ClickHouse's answers before their speeds. No stack: the harness runs in a child process, as a
// benchmark would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { chMoverRows, historyDifference, moversDifference, pgMoverRows } from './bench/twins.js';

const harness = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench', 'harness.js');

/** Runs `body` as a benchmark's last lines would, with the harness imported; its exit code and output. */
function benchmark(body: string): { status: number | null; out: string } {
  const script = `import { checkLoad, finish, goal, invalid, quantileOf } from ${JSON.stringify(harness)};\n${body}\nfinish();`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

const load = (over: object) => JSON.stringify({ rps: 900, p50: 2, p99: 9, requests: 9000, non2xx: 0, errors: 0, ...over });

describe('benchmark verdicts', () => {
  it('a clean measurement meets its goal and exits 0', () => {
    const r = benchmark(`checkLoad('browse', ${load({})}); console.log('p99 ' + quantileOf([1, 2, 3], 0.99, 'x') + ': ' + goal(true));`);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /p99 3: meets goal/);
  });

  it('non-2xx answers, errors or no requests make it invalid: it says why and exits 1', () => {
    for (const [over, why] of [
      [{ non2xx: 12 }, /browse: 12 non-2xx answers of 9000/],
      [{ errors: 3 }, /browse: 3 errors or timeouts/],
      [{ requests: 0 }, /browse: no request completed/],
    ] as const) {
      const r = benchmark(`checkLoad('browse', ${load(over)}); console.log('verdict: ' + goal(true));`);
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, why);
      assert.match(r.out, /verdict: INVALID measurement/);
      assert.doesNotMatch(r.out, /meets goal/);
      assert.match(r.out, /INVALID MEASUREMENT: 1 problem/);
    }
  });

  it('a round where updates were lost has no last-subscriber time, rather than -Infinity meeting the goal', () => {
    const r = benchmark(
      `const p99 = quantileOf([], 0.99, 'announce -> last subscriber'); invalid('WebSocket fan-out: 100 of 100 updates never arrived'); console.log('p99 ' + p99 + ': ' + goal(p99 < 1000));`,
    );
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /p99 NaN: INVALID measurement/);
    assert.match(r.out, /announce -> last subscriber: no samples/);
    assert.match(r.out, /updates never arrived/);
  });
});

describe('twin answers', () => {
  const ch = chMoverRows({
    gainers: [
      [1, 10, 5, 100, 0.2],
      [2, 10, 4, 66.6666666667, 0.1],
    ],
    losers: [[3, 5, -5, -50, 0.3]],
    most_volatile: [
      [3, 5, -5, -50, 0.3],
      [1, 10, 5, 100, 0.2],
    ],
  });
  const pg = (over: Record<string, number> = {}) =>
    pgMoverRows([
      { kind: 'gainer', card_id: 1, value: '100.000000000' },
      { kind: 'gainer', card_id: 2, value: over['gain2'] ?? 66.66666666666667 },
      { kind: 'loser', card_id: 3, value: '-50' },
      { kind: 'volatile', card_id: 3, value: 0.3 },
      { kind: 'volatile', card_id: over['volatile2'] ?? 1, value: 0.2 },
    ]);

  it('agree when each list holds the same cards and values', () => {
    assert.equal(moversDifference(ch, pg()), null);
  });

  it('differ on another value, another card, or an empty answer', () => {
    assert.match(moversDifference(ch, pg({ gain2: 70 }))!, /gainers\[1\]: 66.6666666667 against 70/);
    assert.equal(moversDifference(ch, pg({ volatile2: 7 })), null, 'cards tied on the value at the cut may differ');
    const moved = pgMoverRows([
      { kind: 'gainer', card_id: 9, value: 100 },
      { kind: 'gainer', card_id: 2, value: 66.66666666666667 },
      { kind: 'loser', card_id: 3, value: -50 },
      { kind: 'volatile', card_id: 3, value: 0.3 },
      { kind: 'volatile', card_id: 1, value: 0.2 },
    ]);
    assert.match(moversDifference(ch, moved)!, /gainers: cards 1 against 9/);
    assert.match(moversDifference([], [])!, /an empty answer/);
  });

  it('compare histories row by row, amounts as numbers', () => {
    const row = { date: '2026-01-01', amount: '12.5', source: 'tcgplayer', price_type: 'market' };
    assert.equal(historyDifference([row], [{ ...row, amount: '12.50' }]), null);
    assert.match(historyDifference([row], [{ ...row, amount: '12.49' }])!, /row 0/);
    assert.match(historyDifference([row], [])!, /1 rows against 0/);
  });
});

// The production logger (pino, asynchronous stdout) writes a line as it happens, also in a process
// that then goes quiet for a while (a first start's demo load): operators see progress live.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../sql/runtime/paths.js';

describe('logging', () => {
  it('writes each line to stdout at once, not at exit', async () => {
    const logModule = path.join(repoRoot, 'dist', 'sql', 'runtime', 'log.js');
    // Logs one line, then stays alive and silent for five seconds.
    const script = `const { createLogger } = await import(${JSON.stringify(logModule)});
      createLogger('info').info('demo data: generating price history', { variants_done: 5000, api_key: undefined });
      setTimeout(() => {}, 5000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no line within 2 s')), 2000);
        child.stdout.once('data', (d: Buffer) => {
          clearTimeout(timer);
          resolve(d.toString());
        });
      });
      const record = JSON.parse(line.trim()) as Record<string, unknown>;
      assert.equal(record.msg, 'demo data: generating price history');
      assert.equal(record.level, 'info');
      assert.equal(record.variants_done, 5000);
      assert.match(String(record.ts), /^\d{4}-\d{2}-\d{2}T/);
    } finally {
      child.kill();
    }
  });
});

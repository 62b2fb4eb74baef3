// Temporal: TEMPORAL_ADDRESS when set, else Temporal's own dev server (`temporal server
// start-dev`, SQLite in HOLO_DATA_DIR/temporal.db, web UI beside it), installed with
// `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` into a cache when missing.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../schemas/config.js';
import type { Logger } from '../sql/runtime/log.js';
import { freePort } from '../sql/runtime/ports.js';
import { toolCacheDir } from '../sql/runtime/toolCache.js';

const TEMPORAL_CLI = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export type TemporalServer = { address: string; uiUrl: string | null; kind: 'external' | 'dev-server'; stop(): Promise<void> };

const cacheBinDir = () => path.join(toolCacheDir(), 'bin');

/** The temporal CLI: HOLO_TEMPORAL_BIN, the cache, or a fresh `go install` into the cache. */
export async function ensureTemporalCli(config: Config, log: Logger): Promise<string> {
  if (config.temporalBin) return config.temporalBin;
  const bin = path.join(cacheBinDir(), 'temporal');
  if (fs.existsSync(bin)) return bin;
  log.info('temporal: installing the CLI with go install (a few minutes, once)', { target: bin });
  fs.mkdirSync(cacheBinDir(), { recursive: true });
  await promisify(execFile)('go', ['install', TEMPORAL_CLI], {
    env: { ...process.env, GOBIN: cacheBinDir() },
    maxBuffer: 64 * 1024 * 1024,
  });
  return bin;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal dev server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.end();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`temporal dev server did not listen on ${port} within ${timeoutMs} ms`);
}

export async function startTemporal(config: Config, log: Logger, opts: { port?: number; uiPort?: number } = {}): Promise<TemporalServer> {
  if (config.temporalAddress) {
    log.info('temporal: external cluster', { address: config.temporalAddress });
    return { address: config.temporalAddress, uiUrl: null, kind: 'external', stop: async () => undefined };
  }
  const bin = await ensureTemporalCli(config, log);
  const port = opts.port ?? (await freePort());
  const uiPort = opts.uiPort ?? (await freePort());
  fs.mkdirSync(config.dataDir, { recursive: true });
  const child = spawn(
    bin,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--db-filename',
      path.join(config.dataDir, 'temporal.db'),
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (d) => log.debug('temporal', { line: String(d).trim() }));
  // The dev server never outlives the process that started it, however that process ends.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  await waitForPort(port, child, 60_000);
  log.info('temporal: dev server', { address: `127.0.0.1:${port}`, ui: `http://127.0.0.1:${uiPort}` });
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    kind: 'dev-server',
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

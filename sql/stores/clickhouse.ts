// ClickHouse: CLICKHOUSE_URL when set, else chDB in-process on HOLO_DATA_DIR/clickhouse,
// both behind the same @clickhouse/client API and the same SQL.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';
import { redactUrl } from './postgres.js';
import { openSessionPool, type SessionPool } from './clickhouseSessions.js';
import { readerSessionStatements } from './clickhouseAccess.js';
import { registerRawInsert } from './clickhouseInserts.js';

export type ClickHouseStore = {
  client: ClickHouseClient;
  kind: 'external' | 'embedded';
  database: string;
  cluster: string | undefined;
  /**
   * Embedded mode's sessions of their own (clickhouseSessions.ts): `readers` for data teams, under
   * readonly and the reader limits; `exports` for streamed bulk exports. Undefined on a server,
   * where data teams connect as its reader user.
   */
  sessions: { readers: SessionPool; exports: SessionPool } | undefined;
  /** True once close() was called: reads then fail fast as unavailable. */
  closed(): boolean;
  close(): Promise<void>;
};

export const CLICKHOUSE_DATABASE = 'holo';

export async function openClickHouse(config: Config, log: Logger): Promise<ClickHouseStore> {
  const settings = {
    // Exactness of Decimal and 64-bit values through JSON: they arrive as strings.
    output_format_json_quote_64bit_integers: 1,
    output_format_json_quote_decimals: 1,
    date_time_input_format: 'best_effort',
  } as const;
  let client: ClickHouseClient;
  let kind: ClickHouseStore['kind'];
  let sessions: ClickHouseStore['sessions'];
  if (config.clickhouseUrl) {
    client = createClient({ url: config.clickhouseUrl, clickhouse_settings: settings, request_timeout: 30_000 });
    kind = 'external';
    log.info('clickhouse: external server', { url: redactUrl(config.clickhouseUrl) });
  } else {
    const dir = path.join(config.dataDir, 'clickhouse');
    await fs.mkdir(dir, { recursive: true });
    // chdb/connection implements @clickhouse/client's Connection; the two packages ship their own
    // copies of the type declarations, hence the cast.
    const chdbConnection = createChdbConnection({ path: dir });
    const connection = chdbConnection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'];
    client = createClient({ connection, clickhouse_settings: settings });
    registerRawInsert(client, (params) => chdbConnection.chdb.rawInsert(params));
    kind = 'embedded';
    sessions = {
      readers: openSessionPool(dir, 2, [`USE ${CLICKHOUSE_DATABASE}`, ...readerSessionStatements()]),
      exports: openSessionPool(dir, 2, [`USE ${CLICKHOUSE_DATABASE}`, "SET date_time_input_format = 'best_effort'"]),
    };
    log.info('clickhouse: embedded chDB', { dir });
  }
  await client.command({
    query: `CREATE DATABASE IF NOT EXISTS ${CLICKHOUSE_DATABASE}${config.clickhouseCluster ? ` ON CLUSTER ${config.clickhouseCluster}` : ''}`,
  });
  let closed = false;
  return {
    client,
    kind,
    database: CLICKHOUSE_DATABASE,
    cluster: config.clickhouseCluster,
    sessions,
    closed: () => closed,
    close: async () => {
      if (closed) return;
      closed = true;
      sessions?.readers.close();
      sessions?.exports.close();
      await client.close();
    },
  };
}

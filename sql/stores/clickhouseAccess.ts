// Direct ClickHouse access for data teams: which tables and views they read, and the limits every
// one of their queries runs under. A ClickHouse server gets a read-only role, settings profile
// and user from these (ensureReaderAccess); embedded chDB, which has no users, applies the same
// limits to its reader sessions (stores/clickhouseReader.ts) and the same table list to each
// query before it runs (api/clickhouse/httpInterface.ts).
import crypto from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../runtime/log.js';

/** The documented tables and views (sql/README.md), in database holo. */
export const READER_TABLES = [
  'price_points',
  'price_latest',
  'price_daily',
  'market_daily',
  'fx_rates',
  'fx_to_usd',
  'card_market_daily_usd',
  'card_auction_sales_usd',
  'sealed_price_points',
  'ingest_rejects',
] as const;

/** The documented parameterised views among them, called like functions: holo.card_market_daily_usd(card_id = …). */
export const READER_PARAMETERISED_VIEWS = [
  'card_market_daily_usd',
  'card_auction_sales_usd',
] as const satisfies readonly (typeof READER_TABLES)[number][];

/** System tables clients and BI tools read to connect and browse (version, settings, schema). */
export const READER_SYSTEM_TABLES = [
  'one',
  'numbers',
  'settings',
  'functions',
  'formats',
  'data_type_families',
  'time_zones',
  'databases',
  'tables',
  'columns',
  'table_functions',
  'build_options',
] as const;

/**
 * Every reader query: read-only (no writes, no table functions, no settings changed), at most a
 * minute, 10 million result rows or 1 GiB of result, 5 billion rows or 500 GiB read, 8 GiB of
 * memory. Order matters: readonly last, since it freezes the others.
 */
export const READER_LIMITS = {
  max_execution_time: 60,
  max_result_rows: 10_000_000,
  max_result_bytes: 1_073_741_824,
  result_overflow_mode: 'throw',
  max_rows_to_read: 5_000_000_000,
  max_bytes_to_read: 536_870_912_000,
  max_memory_usage: 8_589_934_592,
  // A query tree of at most 50,000 nodes once aliases are expanded: a 15 KB text whose aliases
  // double at each step otherwise analyses into hundreds of MB (found by an outside test).
  max_expanded_ast_elements: 50_000,
  readonly: 1,
} as const;

const settingsList = () =>
  Object.entries(READER_LIMITS)
    .map(([k, v]) => `${k} = ${typeof v === 'number' ? v : `'${v}'`}`)
    .join(', ');

/** SET statements that put a session under the reader limits (readonly last), with a server's output defaults. */
export function readerSessionStatements(): string[] {
  return [
    // A ClickHouse server's default, which chDB does not share: 64-bit integers as JSON strings.
    'SET output_format_json_quote_64bit_integers = 1',
    ...Object.entries(READER_LIMITS).map(([k, v]) => `SET ${k} = ${typeof v === 'number' ? v : `'${v}'`}`),
  ];
}

/** A user name ClickHouse accepts unquoted in our statements. */
const USER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The statements that give a ClickHouse server its reader: role holo_reader with SELECT on the
 * documented tables alone, profile holo_reader_limits, and the user with the password's SHA-256
 * (the password itself never reaches the server or its query log).
 */
export function readerAccessStatements(reader: { user: string; password: string }, cluster: string | undefined): string[] {
  if (!USER_NAME.test(reader.user)) throw new Error(`HOLO_CLICKHOUSE_READER_USER must match ${USER_NAME}`);
  const on = cluster ? ` ON CLUSTER ${cluster}` : '';
  const hash = crypto.createHash('sha256').update(reader.password).digest('hex');
  return [
    `CREATE ROLE IF NOT EXISTS holo_reader${on}`,
    `REVOKE${on} ALL ON *.* FROM holo_reader`,
    ...READER_TABLES.map((t) => `GRANT${on} SELECT ON holo.${t} TO holo_reader`),
    `CREATE SETTINGS PROFILE OR REPLACE holo_reader_limits${on} SETTINGS ${settingsList()}`,
    `CREATE USER IF NOT EXISTS ${reader.user}${on} IDENTIFIED WITH sha256_hash BY '${hash}' DEFAULT DATABASE holo`,
    `GRANT${on} holo_reader TO ${reader.user}`,
    `ALTER USER ${reader.user}${on} IDENTIFIED WITH sha256_hash BY '${hash}' DEFAULT ROLE holo_reader SETTINGS PROFILE 'holo_reader_limits' DEFAULT DATABASE holo`,
  ];
}

/** Creates or updates the reader on a ClickHouse server (run after the migrations). */
export async function ensureReaderAccess(
  ch: { client: ClickHouseClient; cluster: string | undefined },
  reader: { user: string; password: string },
  log: Logger,
): Promise<void> {
  for (const query of readerAccessStatements(reader, ch.cluster)) await ch.client.command({ query });
  log.info('clickhouse reader ready', { user: reader.user, tables: READER_TABLES.length });
}

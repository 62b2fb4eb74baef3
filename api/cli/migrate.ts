// npm run migrate: applies pending PostgreSQL and ClickHouse migrations and exits.
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { migrateClickHouse, migratePostgres } from '../core/migrate.js';
import { openStores } from '../core/stores/index.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const stores = await openStores(config, log);
try {
  await migratePostgres(stores.pg, log);
  await migrateClickHouse(stores.ch, log);
  log.info('migrations: up to date');
} finally {
  await stores.close();
}

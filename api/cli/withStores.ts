// Shared start of the command-line tools: config, logger, stores, migrations; stores closed after.
import { loadConfig, type Config } from '../core/config.js';
import { createLogger, type Logger } from '../core/log.js';
import { migrateClickHouse, migratePostgres } from '../core/migrate.js';
import { openStores, type Stores } from '../core/stores/index.js';

export async function withMigratedStores(run: (ctx: { config: Config; log: Logger; stores: Stores }) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const stores = await openStores(config, log);
  try {
    await migratePostgres(stores.pg, log);
    await migrateClickHouse(stores.ch, log);
    await run({ config, log, stores });
  } finally {
    await stores.close();
  }
}

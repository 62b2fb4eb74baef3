// Shared start of the command-line tools: config, logger, stores, migrations; stores closed after.
import { loadConfig, type Config } from '../../schemas/config.js';
import { createLogger, type Logger } from '../../sql/runtime/log.js';
import { migrateClickHouse, migratePostgres } from '../../sql/stores/migrate.js';
import { openStores, type Stores } from '../../sql/stores/index.js';

export async function withMigratedStores(run: (ctx: { config: Config; log: Logger; stores: Stores }) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const stores = await openStores(config, log);
  try {
    await migratePostgres(stores.pg, log);
    await migrateClickHouse(stores.ch, log, config.clickhouseReader);
    await run({ config, log, stores });
  } finally {
    await stores.close();
  }
}

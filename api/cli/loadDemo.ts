// npm run demo:load: migrations, then the demo data when the data directory has none yet.
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { migrateClickHouse, migratePostgres } from '../core/migrate.js';
import { openStores } from '../core/stores/index.js';
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const stores = await openStores(config, log);
try {
  await migratePostgres(stores.pg, log);
  await migrateClickHouse(stores.ch, log);
  const loaded = await loadDemoDataIfEmpty(config, stores, log);
  log.info(loaded ? 'demo data: loaded' : 'demo data: already present');
} finally {
  await stores.close();
}

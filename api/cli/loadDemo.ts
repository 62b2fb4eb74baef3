// npm run demo:load: migrations, then the demo data when the data directory has none yet.
import { loadDemoDataIfEmpty } from '../../ingest/demo/index.js';
import { withMigratedStores } from './withStores.js';

await withMigratedStores(async ({ config, log, stores }) => {
  const loaded = await loadDemoDataIfEmpty(config, stores, log);
  log.info(loaded ? 'demo data: loaded' : 'demo data: already present');
});

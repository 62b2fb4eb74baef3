// npm run images:fetch: copies upstream card pictures into HOLO_DATA_DIR/images.
import path from 'node:path';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { openPostgres } from '../core/stores/postgres.js';
import { ImageStore } from '../images/store.js';
import { fetchImageOriginals } from '../../ingest/images/fetchOriginals.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const pg = await openPostgres(config, log);
try {
  await fetchImageOriginals(pg.pool, new ImageStore(path.join(config.dataDir, 'images')), log);
} finally {
  await pg.close();
}

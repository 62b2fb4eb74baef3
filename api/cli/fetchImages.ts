// npm run images:fetch: copies upstream card pictures into HOLO_DATA_DIR/images.
import path from 'node:path';
import { loadConfig } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { openPostgres } from '../../sql/stores/postgres.js';
import { ImageStore } from '../../sql/stores/images.js';
import { fetchImageOriginals } from '../../ingest/images/fetchOriginals.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const pg = await openPostgres(config, log);
try {
  await fetchImageOriginals(pg.pool, new ImageStore(path.join(config.dataDir, 'images')), log);
} finally {
  await pg.close();
}

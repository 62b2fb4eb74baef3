// npm run images:fetch: copies upstream card pictures into HOLO_DATA_DIR/images.
import path from 'node:path';
import { loadConfig } from '../../schemas/config.js';
import { createLogger } from '../../sql/runtime/log.js';
import { openPostgres } from '../../sql/stores/postgres.js';
import { ImageStore } from '../../sql/stores/images.js';
import { fetchImageOriginals } from '../../ingest/images/fetchOriginals.js';
import { ingestOperations, startRecognitionIndex } from '../../workflows/operations.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const pg = await openPostgres(config, log);
try {
  const fetched = await fetchImageOriginals(pg.pool, new ImageStore(path.join(config.dataDir, 'images')), log);
  if (fetched.stored > 0) {
    // New pictures join the recognition index now if Temporal is reachable; else at the next start
    // of Holo or the daily run (holo-recognition-index).
    try {
      const client = await ingestOperations(config).client();
      try {
        log.info('recognition index update asked of its schedule', { schedule_id: await startRecognitionIndex(client) });
      } finally {
        await client.connection.close();
      }
    } catch (err) {
      log.warn('recognition index not updated now: Temporal is not reachable; it updates at the next start or the daily run', {
        cause: (err as Error).message,
      });
    }
  }
} finally {
  await pg.close();
}

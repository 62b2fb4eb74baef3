// The recognition index loaded as an API instance loads it, in a process of its own (node, OpenCV
// and a PostgreSQL pool, nothing else), so its resident size is the index's and not the bench's.
// Then `target` cards measured rather than extrapolated: copies of the stored entries (card ids
// shifted) written into recognition_features inside a transaction that is rolled back, loaded
// from PostgreSQL as an instance loads them, and the process's resident size holding them.
// Then the recognition threads an instance starts (each with its own OpenCV; the index is shared
// with them, not copied), and the resident size with them. Prints one JSON line.
import pg from 'pg';
import { LiveRecognitionIndex } from '../../ingest/recognition/indexLoad.js';
import type { RecognitionIndex } from '../../ingest/recognition/matcher.js';
import { openCv } from '../../ingest/recognition/opencv.js';
import { RecognitionThreads } from '../../ingest/recognition/passWorkers.js';
import { loadConfig } from '../../schemas/config.js';

const [url, targetArg] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 2 });
await openCv();
await pool.query('SELECT 1');
global.gc?.();
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const index = await new LiveRecognitionIndex(pool).current();
const loadMs = performance.now() - started;
global.gc?.();
const rssAfter = process.memoryUsage().rss;

const target = Number(targetArg);
const copies = Math.ceil(target / index.cards) - 1;
const client = await pool.connect();
let big: RecognitionIndex;
let targetLoadMs: number;
try {
  await client.query('BEGIN');
  // The copies name no real cards: the foreign key is dropped inside the transaction only.
  await client.query('ALTER TABLE recognition_features DROP CONSTRAINT recognition_features_card_id_fkey');
  await client.query(
    `INSERT INTO recognition_features (card_id, cut, image_sha256, features, computed_at)
     SELECT card_id + k * 1000000, cut, image_sha256, features, computed_at FROM recognition_features, generate_series(1, $1::int) k`,
    [copies],
  );
  const loadStarted = performance.now();
  big = await new LiveRecognitionIndex(client).current();
  targetLoadMs = performance.now() - loadStarted;
} finally {
  await client.query('ROLLBACK');
  client.release();
}
// Resident with both indexes held, as an instance holds its one index (the small one is < 2 MB).
global.gc?.();
const rssTarget = process.memoryUsage().rss;
const threads = new RecognitionThreads(loadConfig().recognitionThreads);
await threads.started();
global.gc?.();
const rssThreads = process.memoryUsage().rss;
await threads.close();
process.stdout.write(
  `${JSON.stringify({ cards: index.cards, loadMs, rssBefore, rssAfter, indexBytes: index.bytes, targetLoadMs, targetCards: big.cards, targetBytes: big.bytes, rssTarget, threads: threads.size, rssThreads })}\n`,
);
await pool.end();

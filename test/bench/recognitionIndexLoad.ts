// The recognition index loaded as an API instance loads it, in a process of its own (node, OpenCV
// and a PostgreSQL pool, nothing else), so its resident size is the index's and not the bench's.
// Then an index of `target` cards made of copies of the stored entries (card ids shifted), to
// measure what 20,000 cards hold rather than extrapolate it. Prints one JSON line.
import pg from 'pg';
import { LiveRecognitionIndex } from '../../ingest/recognition/indexLoad.js';
import { RecognitionIndex } from '../../ingest/recognition/matcher.js';
import { deserialiseFeatures } from '../../ingest/recognition/features.js';
import { recognitionEntriesAfter } from '../../sql/recognition.js';
import { openCv } from '../../ingest/recognition/opencv.js';

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

const rows = await recognitionEntriesAfter(pool, 0, -1, 1_000_000);
const target = Number(targetArg);
const perCard = rows.length / index.cards;
const big = new RecognitionIndex(Math.ceil(target * perCard));
for (let copy = 0; big.size < big.capacity; copy++)
  for (const row of rows) if (big.size < big.capacity) big.add(row.card_id + copy * 1_000_000, deserialiseFeatures(row.features)!);
rows.length = 0;
global.gc?.();
const rssTarget = process.memoryUsage().rss;
process.stdout.write(
  `${JSON.stringify({ cards: index.cards, loadMs, rssBefore, rssAfter, indexBytes: index.bytes, targetCards: big.cards, targetBytes: big.bytes, rssTarget })}\n`,
);
await pool.end();

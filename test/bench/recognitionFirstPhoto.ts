// The first photos after a start, in a process of its own as a fresh instance has it: the index in
// PostgreSQL, OpenCV not loaded, no thread started. With `warm`, recognition is first warmed as
// api/main.ts does before it reports ready (warmRecognition); without, the first photo pays for it.
// Then the photos given, one after another. Prints one JSON line (times in ms).
// node recognitionFirstPhoto.js <postgres url> <warm|cold> <photo.jpg>...
import fs from 'node:fs';
import pg from 'pg';
import { LiveRecognitionIndex } from '../../ingest/recognition/indexLoad.js';
import { openCv } from '../../ingest/recognition/opencv.js';
import { RecognitionThreads } from '../../ingest/recognition/passWorkers.js';
import { decodePhoto } from '../../ingest/recognition/photo.js';
import { recognisePhoto } from '../../ingest/recognition/recognise.js';
import { warmRecognition } from '../../ingest/recognition/warm.js';
import { loadConfig } from '../../schemas/config.js';

const [url, mode, ...files] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 2 });
const index = new LiveRecognitionIndex(pool);
const threads = new RecognitionThreads(loadConfig().recognitionThreads);
let started = performance.now();
if (mode === 'warm') await warmRecognition(index, threads);
const warmMs = performance.now() - started;
const photoMs: number[] = [];
for (const file of files) {
  started = performance.now();
  const photo = await decodePhoto(fs.readFileSync(file));
  if ('refused' in photo) throw new Error(`${file}: ${photo.refused}`);
  const [cv, current] = await Promise.all([openCv(), index.current()]);
  await recognisePhoto(cv, current, photo, threads);
  photoMs.push(performance.now() - started);
}
await threads.close();
await pool.end();
process.stdout.write(`${JSON.stringify({ mode, warmMs, photoMs })}\n`);

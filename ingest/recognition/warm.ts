// Recognition made ready before an instance says it is up: OpenCV loaded here, the index loaded
// from PostgreSQL, the worker threads started, and one made-up photo recognised on them, so every
// thread has run (and compiled) the passes' code. Measured: the first photo after a start took
// 761 ms at p99 without it, against 254–264 ms warm (issue 37); bench:recognition prints it.
import type { LiveRecognitionIndex } from './indexLoad.js';
import { openCv } from './opencv.js';
import type { RecognitionThreads } from './passWorkers.js';
import type { Photo } from './photo.js';
import { recognisePhoto } from './recognise.js';

/** A 640 × 480 photo of a card-shaped patterned rectangle on a plain table: unsure, so every stage runs. */
function warmUpPhoto(): Photo {
  const width = 640;
  const height = 480;
  const rgb = new Uint8Array(width * height * 3).fill(96);
  for (let y = 90; y < 390; y++)
    for (let x = 213; x < 427; x++) {
      const o = 3 * (y * width + x);
      rgb[o] = (x * 7 + y * 3) & 255;
      rgb[o + 1] = (x * y) & 255;
      rgb[o + 2] = 200;
    }
  return { rgb, width, height, scale: 1, original: { width, height, format: 'raw' } };
}

export async function warmRecognition(index: LiveRecognitionIndex, threads: RecognitionThreads): Promise<void> {
  const [cv, current] = await Promise.all([openCv(), index.current(), threads.started()]);
  await recognisePhoto(cv, current, warmUpPhoto(), threads);
}

// A recognition worker thread (see passWorkers.ts): runs the passes it is sent with its own OpenCV,
// a view of the shared index, and the photos in flight cut from their shared rasters.
import { parentPort } from 'node:worker_threads';
import { ACCEPT_CONFIDENCE, RecognitionIndex } from './matcher.js';
import { openCv } from './opencv.js';
import { PhotoCuts, runPass } from './pass.js';
import type { PassReply, PassRequest } from './passWorkers.js';

// A photo is dropped when its owner says so; this many are kept at most, should a release be lost.
const PHOTOS_KEPT = 8;

const port = parentPort!;
const cv = await openCv();
let index: { id: number; view: RecognitionIndex } | null = null;
const photos = new Map<number, PhotoCuts>();

port.on('message', (m: PassRequest) => {
  if (m.type === 'release') {
    photos.get(m.photoId)?.delete();
    photos.delete(m.photoId);
    return;
  }
  let reply: PassReply;
  try {
    if (index?.id !== m.index.id) index = { id: m.index.id, view: new RecognitionIndex(m.index.arrays) };
    let cuts = photos.get(m.photo.id);
    if (!cuts) {
      photos.set(m.photo.id, (cuts = new PhotoCuts(cv, m.photo)));
      for (const [id, old] of photos) {
        if (photos.size <= PHOTOS_KEPT) break;
        old.delete();
        photos.delete(id);
      }
    }
    const outcome = runPass(cv, index.view, cuts, m.task);
    // The cut (242 KB, copied twice on its way) is wanted only for the photo's chosen pass, which
    // is nearly always a sure one: an unsure one's is cut again where it is chosen (recognise.ts).
    if (outcome.match.confidence < ACCEPT_CONFIDENCE) delete outcome.card;
    reply = { taskId: m.taskId, outcome };
  } catch (error) {
    reply = { taskId: m.taskId, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });

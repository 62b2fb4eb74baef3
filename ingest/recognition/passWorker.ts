// A recognition worker thread (see passWorkers.ts): runs the passes it is sent with its own OpenCV,
// a view of the shared index, and the photos in flight cut from their shared rasters.
import { parentPort } from 'node:worker_threads';
import { RecognitionIndex } from './matcher.js';
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
    reply = { taskId: m.taskId, outcome: runPass(cv, index.view, cuts, m.task) };
  } catch (error) {
    reply = { taskId: m.taskId, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });

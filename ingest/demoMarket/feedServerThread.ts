// The mirror's thread (see feedServer.ts): its own small connection pool to the catalogue,
// the port it listens on posted back once it listens, a {day} message to set its day (acknowledged), and a 'close' message to stop.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { serveFeeds, type MirrorOptions } from './feedServer.js';

const { databaseUrl, port, opts } = workerData as { databaseUrl: string; port: number; opts: MirrorOptions };
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
// An idle client losing its server must not end the thread; the next feed request reports it.
pool.on('error', () => undefined);
const server = await serveFeeds(pool, port, opts);
parentPort!.on('message', (message: 'close' | { day: string | null }) => {
  if (message !== 'close') {
    server.setDay(message.day);
    parentPort!.postMessage({ day: message.day });
    return;
  }
  void server
    .close()
    .then(() => pool.end())
    .finally(() => parentPort!.close());
});
parentPort!.postMessage({ port: server.port });

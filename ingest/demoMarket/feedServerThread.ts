// The feed server's thread (see feedServer.ts): its own small connection pool to the catalogue,
// the port it listens on posted back once it listens, and a 'close' message to stop.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { serveFeeds } from './feedServer.js';

const { databaseUrl, port } = workerData as { databaseUrl: string; port: number };
const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
// An idle client losing its server must not end the thread; the next feed request reports it.
pool.on('error', () => undefined);
const server = await serveFeeds(pool, port);
parentPort!.on('message', (message) => {
  if (message !== 'close') return;
  void server
    .close()
    .then(() => pool.end())
    .finally(() => parentPort!.close());
});
parentPort!.postMessage({ port: server.port });

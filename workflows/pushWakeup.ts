// Pushes leave soon after the notification that queued them: every insert into push_outbox
// NOTIFYs holo_push_outbox (a trigger; PostgreSQL delivers it when the transaction commits), and
// each worker LISTENs and starts a pushOutbox run. Runs are named by the second, so a burst of
// notifications, or several workers hearing the same one, start one run. A lost connection is
// opened again; what was queued meanwhile goes with the next run (the hourly one at the latest).
import type pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import type { Logger } from '../sql/runtime/log.js';
import { startPushOutbox } from './operations.js';

const CHANNEL = 'holo_push_outbox';
const RECONNECT_MS = 5_000;

export async function listenForPushes(
  pool: pg.Pool,
  temporal: { address: string; namespace: string },
  log: Logger,
): Promise<() => Promise<void>> {
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: temporal.namespace });
  let stopped = false;
  let listener: { conn: pg.PoolClient; detach: () => void } | null = null;
  const start = () =>
    startPushOutbox(client, `wake-${Math.floor(Date.now() / 1000)}`).catch((err: Error) =>
      log.warn('push outbox run not started; the next one sends the pushes', { cause: err.message }),
    );
  const listen = async (): Promise<void> => {
    if (stopped) return;
    try {
      const conn = await pool.connect();
      // The connection goes back to the pool without these: other users of it must not wake us.
      const onNotification = (n: pg.Notification) => {
        if (n.channel === CHANNEL) void start();
      };
      const onError = (err: Error) => {
        log.warn('push wake-up: connection lost, listening again', { cause: err.message });
        release(conn, err);
        if (!stopped) setTimeout(() => void listen(), RECONNECT_MS);
      };
      conn.on('notification', onNotification);
      conn.on('error', onError);
      listener = { conn, detach: () => conn.off('notification', onNotification).off('error', onError) };
      await conn.query(`LISTEN ${CHANNEL}`);
      // Pushes queued while nobody listened.
      void start();
    } catch (err) {
      if (listener) release(listener.conn, err as Error);
      log.warn('push wake-up: cannot listen yet', { cause: (err as Error).message });
      if (!stopped) setTimeout(() => void listen(), RECONNECT_MS);
    }
  };
  const release = (conn: pg.PoolClient, err?: Error) => {
    if (listener?.conn !== conn) return;
    listener.detach();
    listener = null;
    conn.release(err ?? true);
  };
  await listen();
  return async () => {
    stopped = true;
    // Destroyed rather than returned: a LISTEN must not outlive us on a pooled connection.
    if (listener) release(listener.conn);
    await client.connection.close();
  };
}

// The operators' live status screen as server-sent events (spec: GET /admin/status/stream): the
// current checks at once, then `checks` after every run and `incident` for every incident opened
// or resolved; a comment line every 15 s keeps proxies from closing an idle stream.
import { PassThrough, type Readable } from 'node:stream';
import type { StatusMonitor, StatusEvent } from './monitor.js';
import { SSE_KEEPALIVE_MS, SSE_MAX_BUFFERED, sseFrame } from '../http/serverSentEvents.js';

/** A stream of the monitor's events, ended when the monitor stops; the route destroys it when the
 *  client goes away. */
export function statusEventStream(monitor: StatusMonitor): Readable {
  const out = new PassThrough();
  let id = 0;
  const write = (event: StatusEvent) => {
    if (event.kind === 'end') return out.end();
    if (out.writableLength > SSE_MAX_BUFFERED) return out.destroy();
    out.write(event.kind === 'checks' ? sseFrame(++id, 'checks', event.snapshot) : sseFrame(++id, 'incident', event.incident));
  };
  out.write('retry: 5000\n\n');
  write({ kind: 'checks', snapshot: monitor.snapshot() });
  const unsubscribe = monitor.subscribe(write);
  const keepalive = setInterval(() => out.write(': keep-alive\n\n'), SSE_KEEPALIVE_MS);
  const stop = () => {
    clearInterval(keepalive);
    unsubscribe();
  };
  out.once('close', stop);
  out.once('finish', stop);
  return out;
}

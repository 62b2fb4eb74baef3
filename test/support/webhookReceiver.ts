// A webhook receiver as a subscriber would write it (the README's example): read the raw body,
// recompute X-Holo-Signature with the endpoint secret, compare in constant time, answer 401 on a
// mismatch; refuse stale deliveries (sent_at older than 5 minutes) and repeated event ids.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { status: number; path: string; body: string; headers: http.IncomingHttpHeaders; verified: boolean; at: number };

export function verifyHoloSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header ?? '', 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** A receiver for every URL under its `url`; `secret` is the endpoint secret of the path asked for. */
export async function startWebhookReceiver(opts: { secret: (path: string) => string; failFirst?: number; alwaysFail?: boolean }) {
  const received: Received[] = [];
  const seen = new Set<string>();
  let failuresLeft = opts.failFirst ?? 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const answer = (status: number, verified: boolean) => {
        received.push({ status, path: req.url ?? '', body: raw.toString('utf8'), headers: req.headers, verified, at: Date.now() });
        res.writeHead(status).end();
      };
      if (!verifyHoloSignature(opts.secret(req.url ?? ''), raw, req.headers['x-holo-signature'] as string | undefined))
        return answer(401, false);
      if (opts.alwaysFail || failuresLeft > 0) {
        failuresLeft--;
        return answer(500, true); // a receiver having a bad moment
      }
      const event = JSON.parse(raw.toString('utf8')) as { id: string; sent_at: string };
      if (Date.now() - Date.parse(event.sent_at) > 5 * 60_000) return answer(400, true); // stale: a replay
      if (seen.has(event.id)) return answer(200, true); // already handled: acknowledge, do nothing
      seen.add(event.id);
      answer(200, true);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/holo-webhook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

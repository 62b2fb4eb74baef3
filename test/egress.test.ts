// Outbound requests to user-chosen URLs (webhook receivers): in production nothing internal is
// reachable, whether the URL names the address or a host name resolves to it at connect time.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isInternalHost, postJson, type Resolver } from '../ingest/events/egress.js';

let server: http.Server;
let port: number;
const received: string[] = [];
let stall = false;

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push(body);
      if (!stall) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const resolverOf =
  (answers: Record<string, string[]>): Resolver =>
  (hostname, callback) =>
    callback(
      null,
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

describe('outbound requests to user-chosen addresses', () => {
  it('tells internal addresses from public ones, including IPv4-mapped IPv6 and cloud metadata', () => {
    const internal = [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '[::ffff:10.0.0.1]',
      'fd00::1',
      'fe80::1',
      'localhost',
      'api.localhost',
    ];
    const external = ['93.184.216.34', '8.8.8.8', '2606:4700::1111', 'hooks.example.com', '172.32.0.1', '100.128.0.1'];
    for (const host of internal) assert.equal(isInternalHost(host), true, host);
    for (const host of external) assert.equal(isInternalHost(host), false, host);
  });

  it('in production refuses an internal address in the URL, and a name resolving to one at connect time', async () => {
    const opts = { timeoutMs: 2000, publicOnly: true };
    await assert.rejects(postJson(`http://127.0.0.1:${port}/hook`, {}, '{}', opts), /127\.0\.0\.1 is an internal address/);
    // A name that resolves (or rebinds) to loopback, or that has one internal address among public ones.
    const resolver = resolverOf({
      'rebound.example': ['127.0.0.1'],
      'mixed.example': ['93.184.216.34', '10.0.0.7'],
      'nowhere.example': [],
    });
    await assert.rejects(
      postJson(`http://rebound.example:${port}/hook`, {}, '{}', { ...opts, resolver }),
      /rebound\.example resolves to an internal address \(127\.0\.0\.1\)/,
    );
    await assert.rejects(
      postJson(`http://mixed.example:${port}/hook`, {}, '{}', { ...opts, resolver }),
      /internal address \(10\.0\.0\.7\)/,
    );
    await assert.rejects(postJson(`http://nowhere.example:${port}/hook`, {}, '{}', { ...opts, resolver }), /no usable address/);
    assert.deepEqual(received, [], 'nothing reached the receiver');
  });

  it('outside production posts to loopback, with the body and a bounded wait', async () => {
    const sent = await postJson(`http://127.0.0.1:${port}/hook`, { 'Content-Type': 'application/json' }, '{"ok":true}', {
      timeoutMs: 2000,
      publicOnly: false,
    });
    assert.equal(sent.status, 204);
    assert.deepEqual(received, ['{"ok":true}']);
    stall = true;
    await assert.rejects(postJson(`http://127.0.0.1:${port}/hook`, {}, '{}', { timeoutMs: 200, publicOnly: false }), {
      name: 'AbortError',
    });
  });
});

// Reading feeds over HTTP with conditional GET, and loading ECB rates into ClickHouse.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from '../sql/paths.js';
import { FeedUnavailableError, fetchFeed } from '../ingest/fetchFeed.js';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { parseEcbRates } from '../ingest/sources/ecbRates.js';
import { chRows } from './support/clickhouseRows.js';
import { startStack, type Stack } from './support/stack.js';

const ecbFile = path.resolve(repoRoot, '..', 'shared', 'data', 'prices', 'ecb-eurofxref', 'eurofxref-hist-90d.xml');

describe('fetchFeed', () => {
  let server: http.Server;
  let base: string;
  const hits: { url: string; inm: string | undefined }[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      hits.push({ url: req.url!, inm: req.headers['if-none-match'] });
      if (req.url === '/ecb.xml') {
        if (req.headers['if-none-match'] === '"v1"') {
          res.writeHead(304).end();
          return;
        }
        res.writeHead(200, { ETag: '"v1"', 'Content-Type': 'application/xml' }).end(fs.readFileSync(ecbFile));
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 2000);
      } else {
        res.writeHead(503).end('down');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('reads a feed, then answers not-modified when the validators still hold', async () => {
    const first = await fetchFeed(`${base}/ecb.xml`);
    assert.equal(first.status, 'fresh');
    assert.equal(first.validators.etag, '"v1"');
    const second = await fetchFeed(`${base}/ecb.xml`, { validators: first.validators });
    assert.equal(second.status, 'not-modified');
    assert.equal(hits.at(-1)!.inm, '"v1"');
  });

  it('fails clearly on errors and timeouts, and reads files', async () => {
    await assert.rejects(fetchFeed(`${base}/broken`), (e: unknown) => e instanceof FeedUnavailableError && /HTTP 503/.test(e.message));
    await assert.rejects(fetchFeed(`${base}/slow`, { timeoutMs: 200 }), FeedUnavailableError);
    const file = await fetchFeed(ecbFile);
    assert.equal(file.status, 'fresh');
  });
});

describe('loading ECB rates', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ demo: 'none' });
  });
  after(async () => {
    await stack?.close();
  });

  it('stores every rate once, however often the same file is loaded', async () => {
    const { rates } = parseEcbRates(fs.readFileSync(ecbFile, 'utf8'));
    const batch = { id: 'ecb-2024-02-27', ingestedAt: new Date('2024-02-27T16:00:00Z'), source: 'ecb' };
    await loadFxRates(stack.stores.ch.client, rates, batch);
    await loadFxRates(stack.stores.ch.client, rates, batch);
    await loadFxRates(stack.stores.ch.client, rates, { ...batch, id: 'ecb-refetch', ingestedAt: new Date('2024-02-28T16:00:00Z') });
    const [row] = await chRows<{ n: string; usd: string }>(
      stack.stores.ch.client,
      `SELECT toString(count()) AS n, toString(anyIf(rate, currency = 'USD' AND day = '2024-02-27')) AS usd FROM holo.fx_rates FINAL WHERE source = 'ecb'`,
    );
    assert.equal(Number(row!.n), rates.length);
    assert.equal(row!.usd, '1.0856');
  });
});

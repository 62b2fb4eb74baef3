// The bulk-file half of bench:ingest: a Scryfall-shaped default-cards file of 100,000 card objects
// made from the real ones in ../shared/data (every field of a real card, its id and prices replaced),
// served gzip-encoded at Scryfall's own paths by a local server, and ingested by the production
// Scryfall connector and pipeline while the process's resident memory is sampled.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/** 100,000 card objects, the catalogue's own Scryfall ids first (so they map), then fresh ones. */
export async function writeScryfallBulkFile(file: string, templatesFile: string, knownIds: string[], cards: number): Promise<number> {
  const templates = JSON.parse(fs.readFileSync(templatesFile, 'utf8')) as Record<string, unknown>[];
  let bytes = 0;
  async function* lines() {
    yield '[\n';
    for (let i = 0; i < cards; i++) {
      const id = knownIds[i] ?? crypto.randomUUID();
      const cents = 25 + ((i * 7919) % 40_000);
      const prices = {
        usd: (cents / 100).toFixed(2),
        usd_foil: i % 3 === 0 ? ((cents * 2.5) / 100).toFixed(2) : null,
        usd_etched: null,
        eur: ((cents * 0.9) / 100).toFixed(2),
        eur_foil: i % 3 === 0 ? ((cents * 2.2) / 100).toFixed(2) : null,
        tix: '0.03',
      };
      const line = `${JSON.stringify({ ...templates[i % templates.length], id, prices })}${i + 1 < cards ? ',' : ''}\n`;
      bytes += Buffer.byteLength(line);
      yield line;
    }
    yield ']\n';
  }
  await pipeline(lines(), zlib.createGzip({ level: 1 }), fs.createWriteStream(file));
  return bytes;
}

/** A local server at Scryfall's paths: /bulk-data/default-cards names the file, served gzip-encoded. */
export async function serveScryfallBulk(file: string, updatedAt: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/bulk-data/default-cards') {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          object: 'bulk_data',
          type: 'default_cards',
          updated_at: `${updatedAt}T09:00:00.000+00:00`,
          download_uri: `${origin}/file/default-cards/${path.basename(file)}`,
          content_type: 'application/json',
          content_encoding: 'gzip',
        }),
      );
      return;
    }
    if (req.url?.startsWith('/file/default-cards/')) {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Encoding', 'gzip');
      fs.createReadStream(file).pipe(res);
      return;
    }
    res.statusCode = 404;
    res.end('{"object":"error","status":404,"details":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The peak resident memory above the level when sampling began, sampled every 20 ms while `work` runs. */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthBytes: peak - base };
  } finally {
    clearInterval(timer);
  }
}

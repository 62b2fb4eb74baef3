// The bulk-file half of bench:ingest: a Scryfall-shaped default-cards file of 100,000 card objects
// made from the real ones in ../shared/data (every field of a real card, its id and prices replaced),
// served gzip-encoded at Scryfall's own paths by a local server, and ingested by the production
// Scryfall connector and pipeline while the process's resident memory is sampled.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { readScryfallCatalogue } from '../../ingest/catalogue/scryfall.js';
import { upsertCatalogue } from '../../ingest/catalogue/upsert.js';

/** The Scryfall id of the bench's i-th card (its own set, so the demo's cards and feeds stay as they are). */
export const benchScryfallId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const BENCH_IDS = 'scryfall:00000000-0000-4000-8000-%';
/** Every third card has a foil printing (and foil prices). */
const hasFoil = (i: number) => i % 3 === 0;

/**
 * The bench's cards in the catalogue, imported once per data directory through the production
 * Scryfall catalogue reader, and their Scryfall ids linked for the measurement only: the demo
 * mirror prices every linked Scryfall id, so they are unlinked again afterwards (unlinkBenchCards).
 */
export async function linkBenchCards(pool: pg.Pool, cards: number, tmpDir: string): Promise<void> {
  const [{ n }] = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE external_key LIKE $1`, [BENCH_IDS]))
    .rows as [{ n: number }];
  if (n < cards) {
    const dir = fs.mkdtempSync(path.join(tmpDir, 'bench-catalogue-'));
    const card = (i: number) => ({
      id: benchScryfallId(i),
      name: `Bench Card ${i}`,
      set: 'hbench',
      set_name: 'Holo Bench',
      collector_number: String(i + 1),
      rarity: 'common',
      lang: 'en',
      finishes: hasFoil(i) ? ['nonfoil', 'foil'] : ['nonfoil'],
    });
    fs.writeFileSync(path.join(dir, 'cards.json'), JSON.stringify(Array.from({ length: cards }, (_, i) => card(i))));
    fs.writeFileSync(
      path.join(dir, 'sets.json'),
      JSON.stringify({
        data: [{ code: 'hbench', name: 'Holo Bench', released_at: '2026-01-01', card_count: cards, set_type: 'expansion' }],
      }),
    );
    await upsertCatalogue(pool, await readScryfallCatalogue(dir), 'bench:ingest bulk file');
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await pool.query(
    `INSERT INTO cross_refs (card_id, ref_key, ref_value)
     SELECT id, 'mtg_card_db_id', substring(external_key FROM 10) FROM cards WHERE external_key LIKE $1 ON CONFLICT DO NOTHING`,
    [BENCH_IDS],
  );
}

export async function unlinkBenchCards(pool: pg.Pool): Promise<void> {
  await pool.query(`DELETE FROM cross_refs WHERE ref_key = 'mtg_card_db_id' AND ref_value LIKE $1`, [BENCH_IDS.slice('scryfall:'.length)]);
}

/** `cards` real card objects (cycled), each with a bench card's id and prices. */
export async function writeScryfallBulkFile(file: string, templatesFile: string, cards: number): Promise<number> {
  const templates = JSON.parse(fs.readFileSync(templatesFile, 'utf8')) as Record<string, unknown>[];
  let bytes = 0;
  async function* lines() {
    yield '[\n';
    for (let i = 0; i < cards; i++) {
      const id = benchScryfallId(i);
      const cents = 25 + ((i * 7919) % 40_000);
      const prices = {
        usd: (cents / 100).toFixed(2),
        usd_foil: hasFoil(i) ? ((cents * 2.5) / 100).toFixed(2) : null,
        usd_etched: null,
        eur: ((cents * 0.9) / 100).toFixed(2),
        eur_foil: hasFoil(i) ? ((cents * 2.2) / 100).toFixed(2) : null,
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

/**
 * The peak resident memory above the level when sampling began, sampled every 20 ms while `work`
 * runs, overall and per step (`work` names the step it is in through `step`): where a load's
 * memory goes.
 */
export async function peakRssGrowth<T>(
  work: (step: (name: string) => void) => Promise<T>,
): Promise<{ result: T; growthBytes: number; perStep: Map<string, number> }> {
  // From the live set (node --expose-gc): the garbage of building the file would hide the growth.
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage.rss();
  const perStep = new Map<string, number>();
  let current = 'start';
  const sample = () => {
    const growth = process.memoryUsage.rss() - base;
    perStep.set(current, Math.max(perStep.get(current) ?? 0, growth));
  };
  const timer = setInterval(sample, 20);
  try {
    const result = await work((name) => {
      sample();
      current = name;
    });
    sample();
    return { result, growthBytes: Math.max(0, ...perStep.values()), perStep };
  } finally {
    clearInterval(timer);
  }
}

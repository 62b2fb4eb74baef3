// A local market feed server: daily feeds in the upstream formats Holo ingests, for the real
// catalogue in PostgreSQL, priced by the demo's one price model (quotePlan.ts, priceModel.ts), the
// same the history backfill was generated from. The demo and the tests ingest from it over HTTP
// through exactly the production path (fetch → parse → map → flag → load).
//   GET /feeds/pokemontcg/pokemon/<day>.json    pokemontcg.io cards with tcgplayer + cardmarket blocks
//   GET /feeds/tcgplayer/<game>/<day>.json      TCGplayer pricing results for the game's product ids
//   GET /feeds/scryfall/mtg/<day>.json          Scryfall card objects with prices
//   GET /feeds/ecb/fx/<day>.xml                 ECB euro reference rates, 90 days ending <day>
//   GET /feeds/cardmarket/<game>/<day>.json     Cardmarket price guide for the game's Cardmarket product ids
//   GET /feeds/pricecharting/<game>/<day>.csv   PriceCharting price guide (Pokémon cards worth grading, every Lorcana card)
//   GET /feeds/ebay/<game>/<day>/<card>.json    eBay completed items of one card (pokemontcg.io id)
// Responses carry an ETag, and If-None-Match answers 304.
// It runs on its own thread (feedServerThread.ts): rendering a day's feeds is hundreds of
// thousands of quotes of JSON, which must not hold up the event loop that ingests them and, in
// `npm start`, answers the API.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import { PRICE_GUIDE_PRINT_RUNS } from '../sources/priceChartingCsv.js';
import { PRICE_GUIDE_CONSOLES } from '../sources/registry.js';
import { auctionItemId, auctionOn, dayNumber, quoteAmount } from './priceModel.js';
import { FEED_PLANS, PRICE_GUIDE_COLUMNS, type PlannedProduct } from './quotePlan.js';

// A scrape asks for one document per watched card: the plan is built once per feed, game and day
// and kept briefly, so a later change to the catalogue or the watchlist shows in the next scrape.
const PLAN_TTL_MS = 10_000;
type CachedPlan = { at: number; products: Promise<PlannedProduct[]> };

function planCache(pool: pg.Pool) {
  const plans = new Map<string, CachedPlan>();
  return (source: string, game: string, day: string): Promise<PlannedProduct[]> => {
    const key = `${source}|${game}|${day}`;
    const hit = plans.get(key);
    if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.products;
    for (const [k, v] of plans) if (Date.now() - v.at >= PLAN_TTL_MS) plans.delete(k);
    const products = FEED_PLANS[source]!(pool, game);
    products.catch(() => plans.delete(key));
    plans.set(key, { at: Date.now(), products });
    return products;
  };
}

/** A product's fields as a nested object, by their dotted paths, priced for the day. */
function nest(product: PlannedProduct, day: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, planned] of product.fields) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = quoteAmount(planned.quote, day);
  }
  return out;
}

const priced = (product: PlannedProduct, day: number) => new Map(product.fields.map(([field, p]) => [field, quoteAmount(p.quote, day)]));

function pokemontcgFeed(products: PlannedProduct[], day: string): string {
  const slash = day.replaceAll('-', '/');
  const data = products.map((p) => {
    const blocks = nest(p, dayNumber(day)) as { tcgplayer?: object; cardmarket?: object };
    return {
      id: p.id,
      ...(blocks.tcgplayer
        ? { tcgplayer: { url: `https://prices.example/tcgplayer/${p.id}`, updatedAt: slash, ...blocks.tcgplayer } }
        : {}),
      ...(blocks.cardmarket
        ? { cardmarket: { url: `https://prices.example/cardmarket/${p.id}`, updatedAt: slash, ...blocks.cardmarket } }
        : {}),
    };
  });
  return JSON.stringify({ data, page: 1, pageSize: data.length, count: data.length, totalCount: data.length });
}

function tcgplayerFeed(products: PlannedProduct[], day: string): string {
  const results = products.map((p) => {
    const [productId, subTypeName] = p.id.split('|');
    return { productId: Number(productId), ...Object.fromEntries(priced(p, dayNumber(day))), directLowPrice: null, subTypeName };
  });
  return JSON.stringify({ success: true, errors: [], results });
}

function scryfallFeed(products: PlannedProduct[], day: string): string {
  const fields = ['usd', 'usd_foil', 'usd_etched', 'eur', 'eur_foil'];
  const out = products.map((p) => {
    const prices = priced(p, dayNumber(day));
    return {
      object: 'card',
      id: p.id,
      prices: { ...Object.fromEntries(fields.map((f) => [f, prices.get(f)?.toFixed(2) ?? null])), tix: null },
    };
  });
  return JSON.stringify(out);
}

function cardmarketFeed(products: PlannedProduct[], day: string): string {
  const fields = ['avg', 'low', 'trend', 'avg1', 'avg7', 'avg30'].flatMap((f) => [f, `${f}-foil`]);
  const priceGuides = products.map((p) => {
    const prices = priced(p, dayNumber(day));
    // A product without foil sales has a foil trend of 0 in the real guide; a foil-only one has null plain fields.
    return {
      idProduct: Number(p.id),
      idCategory: 1,
      ...Object.fromEntries(fields.map((f) => [f, prices.get(f) ?? (f === 'trend-foil' ? 0 : null)])),
    };
  });
  return JSON.stringify({ version: 1, createdAt: `${day}T02:44:49+0100`, priceGuides });
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const PRICE_GUIDE_HEADER = [
  'id',
  'console-name',
  'product-name',
  ...PRICE_GUIDE_COLUMNS.map(([column]) => column),
  'gamestop-price',
  'gamestop-trade-price',
  'retail-loose-buy',
  'retail-loose-sell',
  'retail-cib-buy',
  'retail-cib-sell',
  'retail-new-buy',
  'retail-new-sell',
  'upc',
  'sales-volume',
  'genre',
  'tcg-id',
  'asin',
  'epid',
  'release-date',
];

function priceChartingFeed(products: PlannedProduct[], game: string, day: string): string {
  const prefix = PRICE_GUIDE_CONSOLES[game] ?? `${game} `;
  const lines = [PRICE_GUIDE_HEADER.join(',')];
  for (const p of products) {
    const prices = priced(p, dayNumber(day));
    const tag = PRICE_GUIDE_PRINT_RUNS[p.card.print_run];
    const name = `${p.card.card_name}${tag ? ` ${tag}` : ''} #${p.card.number}`;
    const row: Record<string, string> = {
      id: p.id,
      'console-name': `${prefix}${p.card.set_name}`,
      'product-name': name,
      'sales-volume': String(Math.floor((p.fields[0]![1].quote.seed % 400) + 1)),
      genre: `${prefix.trim()} Card`,
    };
    for (const [column] of PRICE_GUIDE_COLUMNS) {
      const amount = prices.get(column);
      if (amount !== undefined) row[column] = usd(amount);
    }
    lines.push(PRICE_GUIDE_HEADER.map((c) => csvCell(row[c] ?? '')).join(','));
  }
  return lines.join('\n') + '\n';
}

function ebayCompletedFeed(product: PlannedProduct | undefined, day: string): string | null {
  if (!product) return null;
  const t = dayNumber(day);
  const item = product.fields.flatMap(([title, planned]) => {
    const listing = auctionOn(planned.quote, t);
    if (!listing) return [];
    const id = auctionItemId(planned.quote, t);
    const ended = new Date(t * 86_400_000 + (planned.quote.seed % 86_399) * 1000).toISOString();
    return [
      {
        itemId: [id],
        title: [`${product.card.card_name} ${product.card.number} ${product.card.set_name} ${title}`],
        sellingStatus: [
          {
            currentPrice: [{ '@currencyId': 'USD', __value__: quoteAmount(planned.quote, t).toFixed(2) }],
            sellingState: [listing === 'sold' ? 'EndedWithSales' : 'EndedWithoutSales'],
          },
        ],
        listingInfo: [{ endTime: [ended] }],
      },
    ];
  });
  return JSON.stringify({
    findCompletedItemsResponse: [
      {
        ack: ['Success'],
        version: ['1.13.0'],
        timestamp: [`${day}T23:59:59.000Z`],
        searchResult: [{ '@count': String(item.length), item }],
      },
    ],
  });
}

function ecbFeed(day: string): string {
  const end = Date.parse(`${day}T00:00:00Z`);
  const cubes: string[] = [];
  for (let i = 0; i < 90; i++) {
    const d = new Date(end - i * 86_400_000);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue; // the ECB publishes on business days
    const iso = d.toISOString().slice(0, 10);
    const t = d.getTime() / 86_400_000;
    const rate = (level: number, phase: number) => (level * (1 + 0.04 * Math.sin((2 * Math.PI * t) / 190 + phase))).toFixed(4);
    cubes.push(
      `<Cube time='${iso}'><Cube currency='USD' rate='${rate(1.0856, 0)}'/><Cube currency='JPY' rate='${rate(162.5, 1.3)}'/><Cube currency='GBP' rate='${rate(0.8535, 2.1)}'/></Cube>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject><gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
<Cube>${cubes.join('')}</Cube></gesmes:Envelope>`;
}

export type FeedServer = { url: string; close(): Promise<void> };

/** Starts the feed server on its own thread, reading the catalogue from the database at `databaseUrl`. */
export function startFeedServer(databaseUrl: string, port = 0): Promise<FeedServer> {
  const thread = new Worker(new URL('./feedServerThread.js', import.meta.url), { workerData: { databaseUrl, port } });
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    thread.once('error', reject);
    thread.once('message', (message: { port: number }) => {
      thread.off('error', reject);
      // A feed server that fails later shows as failed fetches in the next scrape's report.
      thread.on('error', () => undefined);
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        close: async () => {
          thread.postMessage('close');
          await exited;
        },
      });
    });
  });
}

/** The feed server itself, on the calling thread; `close` stops listening and drops open connections. */
export async function serveFeeds(pool: pg.Pool, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const plan = planCache(pool);
  const server = http.createServer(async (req, res) => {
    const m = /^\/feeds\/([a-z]+)\/([a-z-]+)\/(\d{4}-\d{2}-\d{2})(?:\/([A-Za-z0-9_.%-]+))?\.(json|xml|csv)$/.exec(req.url ?? '');
    if (!m || Number.isNaN(Date.parse(m[3]!))) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"no such feed"}');
      return;
    }
    const [, source, game, day, item, ext] = m as unknown as [string, string, string, string, string | undefined, string];
    try {
      const body =
        item !== undefined
          ? source === 'ebay' && ext === 'json'
            ? ebayCompletedFeed(
                (await plan('ebay', game, day)).find((p) => p.id === decodeURIComponent(item)),
                day,
              )
            : null
          : source === 'pokemontcg' && game === 'pokemon' && ext === 'json'
            ? pokemontcgFeed(await plan('pokemontcg', game, day), day)
            : source === 'tcgplayer' && ext === 'json'
              ? tcgplayerFeed(await plan('tcgplayer', game, day), day)
              : source === 'scryfall' && game === 'mtg' && ext === 'json'
                ? scryfallFeed(await plan('scryfall', game, day), day)
                : source === 'cardmarket' && ext === 'json'
                  ? cardmarketFeed(await plan('cardmarket', game, day), day)
                  : source === 'pricecharting' && ext === 'csv'
                    ? priceChartingFeed(await plan('pricecharting', game, day), game, day)
                    : source === 'ecb' && game === 'fx'
                      ? ecbFeed(day)
                      : null;
      if (body === null) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"no such feed"}');
        return;
      }
      const etag = `"${crypto.createHash('sha1').update(body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ETag: etag }).end();
        return;
      }
      res
        .writeHead(200, { 'Content-Type': ext === 'xml' ? 'application/xml' : ext === 'csv' ? 'text/csv' : 'application/json', ETag: etag })
        .end(body);
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The local upstream mirror: the real upstreams' own paths, formats, paging, headers and auth
// checks, for the real catalogue in PostgreSQL, priced by the demo's one price model
// (quotePlan.ts, priceModel.ts), the same the history backfill was generated from. The demo and
// the tests point each connector's base URL at it (HOLO_MIRROR), so they ingest through exactly
// the production connectors; nothing in those knows it is talking to the mirror.
//   GET  /v2/cards?page&pageSize                        pokemontcg.io cards (X-Api-Key checked when sent)
//   GET  /bulk-data/default-cards, /bulk/<file>.json    Scryfall's bulk-data object and its gzip file (User-Agent and Accept required)
//   GET  /productCatalog/priceGuide/price_guide_<idGame>.json        Cardmarket's price guide (the product list is not read: cardmarket.ts)
//   POST /token, GET /pricing/product/<ids>             TCGplayer (client credentials, bearer token)
//   GET  /price-guide/download-custom?t&category         PriceCharting's CSV (token checked)
//   POST /identity/v1/oauth2/token, GET /buy/marketplace_insights/v1_beta/item_sales/search   eBay sold items
//   GET  /stats/eurofxref/eurofxref-hist-90d.xml, eurofxref-daily.xml                          ECB rates
// and the catalogue paths of pokemontcg.io, Scryfall, LorcanaJSON and the-fab-cube (catalogueMirror.ts).
// Documents carry ETag and Last-Modified (If-None-Match answers 304); about one request in a
// hundred is answered 429 with Retry-After, as a busy upstream does. Prices are those of the
// mirror's day: today, or the day a test sets (setDay), since the real upstreams only ever serve
// their current prices.
// It runs on its own thread (feedServerThread.ts): rendering a day's feeds is hundreds of
// thousands of quotes of JSON, which must not hold up the event loop that ingests them and, in
// `npm start`, answers the API.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import path from 'node:path';
import zlib from 'node:zlib';
import { MIRROR_CREDENTIALS } from '../../schemas/config.js';
import { PRICE_GUIDE_PRINT_RUNS } from '../sources/priceChartingCsv.js';
import { CARDMARKET_GAMES } from '../upstreams/cardmarket.js';
import { EBAY_PAGE_LIMIT } from '../upstreams/ebay.js';
import { POKEMONTCG_PAGE_SIZE } from '../upstreams/pokemontcg.js';
import { PRICE_GUIDE_CATEGORIES } from '../upstreams/pricecharting.js';
import { catalogueMirror, scryfallCatalogueCards, type CatalogueMirrorOptions } from './catalogueMirror.js';
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

function pokemontcgCards(products: PlannedProduct[], day: string): object[] {
  const slash = day.replaceAll('-', '/');
  return products.map((p) => {
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
}

function tcgplayerFeed(products: PlannedProduct[], day: string): string {
  const results = products.map((p) => {
    const [productId, subTypeName] = p.id.split('|');
    return { productId: Number(productId), ...Object.fromEntries(priced(p, dayNumber(day))), directLowPrice: null, subTypeName };
  });
  return JSON.stringify({ success: true, errors: [], results });
}

/** The catalogue's Scryfall card objects, each with the day's prices (none for a card the plan does not quote). */
function scryfallFeed(products: PlannedProduct[], day: string, cards: ({ id: string } & Record<string, unknown>)[]): string {
  const fields = ['usd', 'usd_foil', 'usd_etched', 'eur', 'eur_foil'];
  const quoted = new Map(products.map((p) => [p.id, priced(p, dayNumber(day))]));
  const pricesOf = (id: string) => {
    const prices = quoted.get(id);
    return { ...Object.fromEntries(fields.map((f) => [f, prices?.get(f)?.toFixed(2) ?? null])), tix: null };
  };
  const known = new Set(cards.map((c) => c.id));
  const out = [
    ...cards.map((c) => ({ ...c, prices: pricesOf(c.id) })),
    ...products.filter((p) => !known.has(p.id)).map((p) => ({ object: 'card', id: p.id, prices: pricesOf(p.id) })),
  ];
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
  const prefix = PRICE_GUIDE_CATEGORIES[game]?.consolePrefix ?? `${game} `;
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

/** A watched card's sold listings of the day, as Marketplace Insights item sales, with their titles. */
function ebaySales(product: PlannedProduct, day: string): { title: string; sale: object }[] {
  const t = dayNumber(day);
  return product.fields.flatMap(([title, planned]) => {
    if (auctionOn(planned.quote, t) !== 'sold') return [];
    const id = auctionItemId(planned.quote, t);
    const full = `${product.card.card_name} ${product.card.number} ${product.card.set_name} ${title}`;
    return [
      {
        title: full,
        sale: {
          itemId: `v1|${id}|0`,
          title: full,
          lastSoldDate: new Date(t * 86_400_000 + (planned.quote.seed % 86_399) * 1000).toISOString(),
          lastSoldPrice: { value: quoteAmount(planned.quote, t).toFixed(2), currency: 'USD' },
          totalSoldQuantity: 1,
          categories: [{ categoryId: '183454', categoryName: 'CCG Individual Cards' }],
        },
      },
    ];
  });
}

const words = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

function ecbFeed(day: string, days: number): string {
  const end = Date.parse(`${day}T00:00:00Z`);
  const cubes: string[] = [];
  for (let i = 0; cubes.length < days && i < 90; i++) {
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

export type FeedServer = {
  url: string;
  setDay(day: string | null): Promise<void>;
  /** Milliseconds the mirror's thread has been busy (its event loop's active time): what playing upstream cost. */
  busyMs(): number;
  close(): Promise<void>;
};

export type MirrorOptions = {
  /** Every how many requests one is answered 429 (Retry-After: 1); 0: never. */
  throttleEvery?: number;
  /** The catalogue files it serves (default: HOLO_SHARED_DATA_DIR or ../shared/data, the small demo's sets). */
  catalogue?: CatalogueMirrorOptions;
};

/** Starts the mirror on its own thread, reading the catalogue from the database at `databaseUrl`. */
export function startFeedServer(databaseUrl: string, port = 0, opts: MirrorOptions = {}): Promise<FeedServer> {
  const thread = new Worker(new URL('./feedServerThread.js', import.meta.url), { workerData: { databaseUrl, port, opts } });
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    thread.once('error', reject);
    thread.once('message', (message: { port: number }) => {
      thread.off('error', reject);
      // A mirror that fails later shows as failed fetches in the next scrape's report.
      thread.on('error', () => undefined);
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        setDay: (day) =>
          new Promise((done) => {
            thread.once('message', () => done());
            thread.postMessage({ day });
          }),
        busyMs: () => thread.performance.eventLoopUtilization().active,
        close: async () => {
          thread.postMessage('close');
          await exited;
        },
      });
    });
  });
}

type Answer = { status: number; type: string; body: string | Buffer; headers?: Record<string, string>; document?: boolean };

const json = (status: number, doc: unknown, headers?: Record<string, string>): Answer => ({
  status,
  type: 'application/json',
  body: JSON.stringify(doc),
  headers,
});
const GAME_OF_CARDMARKET = Object.fromEntries(Object.entries(CARDMARKET_GAMES).map(([game, id]) => [String(id), game]));
const GAME_OF_CATEGORY = Object.fromEntries(Object.entries(PRICE_GUIDE_CATEGORIES).map(([game, c]) => [c.category, game]));
const TCGPLAYER_TOKEN = 'holo-mirror-tcgplayer-bearer';
const EBAY_TOKEN = 'holo-mirror-ebay-application-token';

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The mirror itself, on the calling thread; `close` stops listening and drops open connections. */
export async function serveFeeds(
  pool: pg.Pool,
  port: number,
  opts: MirrorOptions = {},
): Promise<{ port: number; setDay(day: string | null): void; close(): Promise<void> }> {
  const plan = planCache(pool);
  let pinned: string | null = null;
  const today = () => pinned ?? new Date().toISOString().slice(0, 10);
  const throttleEvery = opts.throttleEvery ?? 97;
  let requests = 0;
  const catalogueFiles = opts.catalogue ?? { dataDir: path.resolve(process.env.HOLO_SHARED_DATA_DIR ?? '../shared/data'), scope: 'small' };
  const catalogue = catalogueMirror(catalogueFiles);

  async function answer(req: http.IncomingMessage, url: URL): Promise<Answer> {
    const day = today();
    const path = url.pathname;
    const bearer = /^bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (path.startsWith('/v2/')) {
      const key = req.headers['x-api-key'];
      if (key !== undefined && key !== MIRROR_CREDENTIALS.HOLO_POKEMONTCG_API_KEY)
        return json(403, { error: { message: 'Forbidden: the API key is not valid', code: 403 } });
    }
    // Scryfall refuses requests without a User-Agent and an Accept header.
    if (
      (path === '/sets' || path.startsWith('/bulk-data/') || path.startsWith('/bulk/')) &&
      (!req.headers['user-agent'] || !req.headers.accept)
    )
      return json(400, { object: 'error', code: 'bad_request', status: 400, details: 'A User-Agent and an Accept header are required' });
    const fromCatalogue = await catalogue(url);
    if (fromCatalogue) return fromCatalogue;
    if (path === '/v2/cards') {
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const pageSize = Math.min(POKEMONTCG_PAGE_SIZE, Math.max(1, Number(url.searchParams.get('pageSize') ?? POKEMONTCG_PAGE_SIZE) || 1));
      const products = await plan('pokemontcg', 'pokemon', day);
      const data = pokemontcgCards(products.slice((page - 1) * pageSize, page * pageSize), day);
      return json(200, { data, page, pageSize, count: data.length, totalCount: products.length });
    }
    if (path.startsWith('/bulk-data/') || path.startsWith('/bulk/')) {
      const stamp = `${day.replaceAll('-', '')}090000`;
      if (path === '/bulk-data/default-cards')
        return json(200, {
          object: 'bulk_data',
          type: 'default_cards',
          updated_at: `${day}T09:00:00.000+00:00`,
          name: 'Default Cards',
          download_uri: `http://${req.headers.host}/bulk/default-cards-${stamp}.json`,
          content_type: 'application/json',
          content_encoding: 'gzip',
        });
      if (path === `/bulk/default-cards-${stamp}.json`)
        return {
          status: 200,
          type: 'application/json',
          body: scryfallFeed(await plan('scryfall', 'mtg', day), day, await scryfallCatalogueCards(catalogueFiles.dataDir)),
          document: true,
        };
    }
    const guide = /^\/productCatalog\/priceGuide\/price_guide_(\d+)\.json$/.exec(path);
    if (guide && GAME_OF_CARDMARKET[guide[1]!])
      return {
        status: 200,
        type: 'application/json',
        body: cardmarketFeed(await plan('cardmarket', GAME_OF_CARDMARKET[guide[1]!]!, day), day),
        document: true,
      };
    if (path === '/token' && req.method === 'POST') {
      const form = await formOf(req);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== MIRROR_CREDENTIALS.HOLO_TCGPLAYER_CLIENT_ID ||
        form.get('client_secret') !== MIRROR_CREDENTIALS.HOLO_TCGPLAYER_CLIENT_SECRET
      )
        // RFC 6749 §5.2's answer to client credentials sent in the form body (TCGplayer documents no status).
        return json(400, { error: 'invalid_client' });
      return json(200, { access_token: TCGPLAYER_TOKEN, token_type: 'bearer', expires_in: 1_209_599 });
    }
    const pricing = /^\/pricing\/product\/([\d,]+)$/.exec(path);
    if (pricing) {
      if (bearer !== TCGPLAYER_TOKEN) return json(401, { message: 'Authorization has been denied for this request.' });
      const ids = new Set(pricing[1]!.split(','));
      const products = (await plan('tcgplayer', 'flesh-and-blood', day)).filter((p) => ids.has(p.id.split('|')[0]!));
      if (products.length === 0) return json(404, { success: false, errors: ['No products were found.'], results: [] });
      return { status: 200, type: 'application/json', body: tcgplayerFeed(products, day) };
    }
    if (path === '/price-guide/download-custom') {
      if (url.searchParams.get('t') !== MIRROR_CREDENTIALS.HOLO_PRICECHARTING_TOKEN)
        return { status: 403, type: 'text/plain', body: 'Invalid access token' };
      const game = GAME_OF_CATEGORY[url.searchParams.get('category') ?? ''];
      if (!game) return { status: 404, type: 'text/plain', body: 'No such category' };
      return { status: 200, type: 'text/csv', body: priceChartingFeed(await plan('pricecharting', game, day), game, day), document: true };
    }
    if (path === '/identity/v1/oauth2/token' && req.method === 'POST') {
      const basic = Buffer.from(`${MIRROR_CREDENTIALS.HOLO_EBAY_CLIENT_ID}:${MIRROR_CREDENTIALS.HOLO_EBAY_CLIENT_SECRET}`).toString(
        'base64',
      );
      const form = await formOf(req);
      if (req.headers.authorization !== `Basic ${basic}` || form.get('grant_type') !== 'client_credentials')
        return json(401, { error: 'invalid_client', error_description: 'client authentication failed' });
      return json(200, { access_token: EBAY_TOKEN, expires_in: 7200, token_type: 'Application Access Token' });
    }
    if (path === '/buy/marketplace_insights/v1_beta/item_sales/search') {
      if (bearer !== EBAY_TOKEN)
        return json(401, { errors: [{ errorId: 1001, domain: 'OAuth', category: 'REQUEST', message: 'Invalid access token' }] });
      const wanted = words(url.searchParams.get('q') ?? '');
      const limit = Math.min(EBAY_PAGE_LIMIT, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
      const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
      const sales = (await plan('ebay', 'pokemon', day))
        .flatMap((p) => ebaySales(p, day))
        .filter((s) => {
          const title = new Set(words(s.title));
          return wanted.length > 0 && wanted.every((w) => title.has(w));
        });
      const page = sales.slice(offset, offset + limit).map((s) => s.sale);
      const self = (o: number) =>
        `http://${req.headers.host}${path}?${new URLSearchParams({ ...Object.fromEntries(url.searchParams), offset: String(o) }).toString()}`;
      return json(200, {
        href: self(offset),
        total: sales.length,
        limit,
        offset,
        ...(offset + limit < sales.length ? { next: self(offset + limit) } : {}),
        ...(page.length ? { itemSales: page } : {}),
      });
    }
    if (path === '/stats/eurofxref/eurofxref-hist-90d.xml' || path === '/stats/eurofxref/eurofxref-daily.xml')
      return { status: 200, type: 'text/xml', body: ecbFeed(day, path.endsWith('daily.xml') ? 1 : 90), document: true };
    return json(404, { detail: 'no such upstream path' });
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://mirror');
    try {
      // A busy upstream: now and then a request is asked to come back a second later.
      if (throttleEvery > 0 && ++requests % throttleEvery === 0) {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' }).end('{"detail":"Too many requests"}');
        return;
      }
      const a = await answer(req, url);
      const headers: Record<string, string> = { 'Content-Type': a.type, ...a.headers };
      if (a.document && a.status === 200) {
        const etag = `"${crypto.createHash('sha1').update(a.body).digest('hex')}"`;
        headers.ETag = etag;
        headers['Last-Modified'] = new Date(`${today()}T09:00:00Z`).toUTCString();
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { ETag: etag }).end();
          return;
        }
      }
      // Documents go out gzip-encoded to a client that accepts it (Scryfall's bulk files always are).
      if (a.document && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        res.writeHead(a.status, { ...headers, 'Content-Encoding': 'gzip' }).end(zlib.gzipSync(a.body, { level: 1 }));
        return;
      }
      res.writeHead(a.status, headers).end(a.body);
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    setDay: (day) => {
      pinned = day;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

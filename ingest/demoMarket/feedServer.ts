// A local market feed server: deterministic daily feeds in the upstream formats Holo ingests,
// for the real catalogue in PostgreSQL. The demo and the tests ingest from it over HTTP through
// exactly the production path (fetch → parse → map → flag → load).
//   GET /feeds/pokemontcg/pokemon/<day>.json    pokemontcg.io cards with tcgplayer + cardmarket blocks
//   GET /feeds/tcgplayer/<game>/<day>.json      TCGplayer pricing results for the game's product ids
//   GET /feeds/scryfall/mtg/<day>.json          Scryfall card objects with prices
//   GET /feeds/ecb/fx/<day>.xml                 ECB euro reference rates, 90 days ending <day>
//   GET /feeds/cardmarket/<game>/<day>.json     Cardmarket price guide for the game's Cardmarket product ids
//   GET /feeds/pricecharting/<game>/<day>.csv   PriceCharting price guide of the game's graded-worthy cards
//   GET /feeds/ebay/<game>/<day>/<card>.json    eBay completed items of one card (pokemontcg.io id)
// Responses carry an ETag, and If-None-Match answers 304.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { basePrice, quote, unit } from './priceModel.js';
import {
  demoAuctionCard,
  demoEuProducts,
  demoGuideCards,
  demoProducts,
  demoScryfallCards,
  demoUsSkus,
  type DemoProduct,
} from '../../sql/demoMarket.js';

type Product = DemoProduct;

const TCG_KEY: Record<string, string> = { normal: 'normal', holofoil: 'holofoil', 'reverse-holofoil': 'reverseHolofoil' };

async function products(pool: pg.Pool, game: string): Promise<Product[]> {
  return demoProducts(pool, game);
}

async function pokemontcgFeed(pool: pg.Pool, day: string): Promise<string> {
  const slash = day.replaceAll('-', '/');
  const data = (await products(pool, 'pokemon')).map((p) => {
    const id = p.external_key.replace(/^pokemontcg:/, '');
    const base = basePrice(id, p.rarity);
    const prices: Record<string, Record<string, number | null>> = {};
    for (const finish of p.finishes) {
      const key = TCG_KEY[finish];
      if (!key) continue;
      const f = finish === 'reverse-holofoil' ? 1.5 : 1;
      const market = quote(id, `${finish}|market`, 'tcgplayer', base, day, f);
      prices[key] = {
        low: quote(id, `${finish}|low`, 'tcgplayer', base, day, f * 0.8),
        mid: quote(id, `${finish}|mid`, 'tcgplayer', base, day, f * 1.05),
        high: quote(id, `${finish}|high`, 'tcgplayer', base, day, f * 1.7),
        market,
        directLow: unit(`${id}|dl`) < 0.5 ? quote(id, `${finish}|directLow`, 'tcgplayer', base, day, f * 0.95) : null,
      };
    }
    const eur = (series: string, factor: number) => quote(id, series, 'cardmarket', base, day, 0.92 * factor);
    return {
      id,
      tcgplayer: { url: `https://prices.example/tcgplayer/${id}`, updatedAt: slash, prices },
      cardmarket: {
        url: `https://prices.example/cardmarket/${id}`,
        updatedAt: slash,
        prices: {
          averageSellPrice: eur('avg', 1.02),
          lowPrice: eur('low', 0.78),
          trendPrice: eur('trend', 1),
          avg1: eur('avg1', 1),
          avg7: eur('avg7', 1),
          avg30: eur('avg30', 1),
          ...(p.finishes.includes('reverse-holofoil')
            ? { reverseHoloTrend: eur('rh-trend', 1.5), reverseHoloAvg1: eur('rh-avg1', 1.5) }
            : {}),
        },
      },
    };
  });
  return JSON.stringify({ data, page: 1, pageSize: data.length, count: data.length, totalCount: data.length });
}

async function tcgplayerFeed(pool: pg.Pool, game: string, day: string): Promise<string> {
  const rows = await demoUsSkus(pool, game);
  const SUB: Record<string, string> = {
    normal: 'Normal',
    'rainbow-foil': 'Rainbow Foil',
    'cold-foil': 'Cold Foil',
    'gold-cold-foil': 'Gold Cold Foil',
    foil: 'Foil',
  };
  const seen = new Set<string>();
  const results = [];
  for (const r of rows) {
    const sub = r.print_run === '1st-edition' && r.finish === 'normal' ? '1st Edition' : (SUB[r.finish] ?? 'Normal');
    const key = `${r.ref_value}|${sub}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const base = basePrice(r.ref_value, r.rarity) * (r.finish === 'normal' ? 1 : 2.2);
    results.push({
      productId: Number(r.ref_value),
      lowPrice: quote(key, 'low', 'tcgplayer', base, day, 0.82),
      midPrice: quote(key, 'mid', 'tcgplayer', base, day, 1.06),
      highPrice: quote(key, 'high', 'tcgplayer', base, day, 1.7),
      marketPrice: quote(key, 'market', 'tcgplayer', base, day),
      directLowPrice: null,
      subTypeName: sub,
    });
  }
  return JSON.stringify({ success: true, errors: [], results });
}

async function scryfallFeed(pool: pg.Pool, day: string): Promise<string> {
  const cards = await demoScryfallCards(pool);
  const out = cards.map((c) => {
    const base = basePrice(c.ref_value, c.rarity);
    const usd = (f: string, factor: number) =>
      c.finishes.includes(f) ? quote(c.ref_value, `usd-${f}`, 'scryfall', base, day, factor).toFixed(2) : null;
    const eur = (f: string, factor: number) =>
      c.finishes.includes(f) ? quote(c.ref_value, `eur-${f}`, 'scryfall-eu', base, day, 0.9 * factor).toFixed(2) : null;
    return {
      object: 'card',
      id: c.ref_value,
      prices: {
        usd: usd('normal', 1),
        usd_foil: usd('foil', 2),
        usd_etched: usd('etched', 2.5),
        eur: eur('normal', 1),
        eur_foil: eur('foil', 2),
        tix: null,
      },
    };
  });
  return JSON.stringify(out);
}

async function cardmarketFeed(pool: pg.Pool, game: string, day: string): Promise<string> {
  const products = await demoEuProducts(pool, game);
  const priceGuides = products.map((p) => {
    const base = basePrice(p.ref_value, p.rarity) * 0.92;
    const eur = (field: string, factor: number) => quote(p.ref_value, field, 'cardmarket', base, day, factor);
    const foil = p.finishes.some((f) => f !== 'normal');
    // A foil-only product has no non-foil sales: the guide leaves those fields null.
    const plain = (field: string, factor: number) => (p.finishes.includes('normal') ? eur(field, factor) : null);
    const foilEur = (field: string, factor: number) => (foil ? eur(`${field}-foil`, 2.1 * factor) : null);
    return {
      idProduct: Number(p.ref_value),
      idCategory: 1,
      avg: plain('avg', 1.02),
      low: plain('low', 0.7),
      trend: plain('trend', 1),
      avg1: plain('avg1', 1),
      avg7: plain('avg7', 1),
      avg30: plain('avg30', 1),
      'avg-foil': foilEur('avg', 1.02),
      'low-foil': foilEur('low', 0.7),
      'trend-foil': foil ? foilEur('trend', 1) : 0,
      'avg1-foil': foilEur('avg1', 1),
      'avg7-foil': foilEur('avg7', 1),
      'avg30-foil': foilEur('avg30', 1),
    };
  });
  return JSON.stringify({ version: 1, createdAt: `${day}T02:44:49+0100`, priceGuides });
}

// Graded guides track the cards worth slabbing: the same rule as the demo history (base >= $8).
async function gradedWorthyCards(pool: pg.Pool, game: string) {
  const rows = await demoGuideCards(pool, game);
  return rows.filter((r) => basePrice(r.ext, r.rarity) >= 8);
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function priceChartingFeed(pool: pg.Pool, game: string, day: string): Promise<string> {
  const header =
    'id,console-name,product-name,loose-price,cib-price,new-price,graded-price,box-only-price,manual-only-price,bgs-10-price,condition-17-price,condition-18-price,gamestop-price,gamestop-trade-price,retail-loose-buy,retail-loose-sell,retail-cib-buy,retail-cib-sell,retail-new-buy,retail-new-sell,upc,sales-volume,genre,tcg-id,asin,epid,release-date';
  const lines = [header];
  const gameName = game === 'pokemon' ? 'Pokemon' : game;
  for (const card of await gradedWorthyCards(pool, game)) {
    for (const run of card.print_runs.filter((r) => r === 'unlimited' || r === '1st-edition')) {
      const product = `${card.ext}|${run}`;
      const base = basePrice(card.ext, card.rarity) * (run === '1st-edition' ? 6 : 1);
      const q = (series: string, factor: number) => usd(quote(product, series, 'pricecharting', base, day, factor));
      // PriceCharting ids are its own; the feed derives stable ones from the card.
      const id = 1_000_000 + Math.floor(unit(product) * 8_999_999);
      const name = `${card.name}${run === '1st-edition' ? ' [1st Edition]' : ''} #${card.number}`;
      lines.push(
        [
          String(id),
          `${gameName} ${card.set_name}`,
          name,
          q('loose', 1),
          q('g7', 1.6),
          q('g8', 2.2),
          q('g9', 3.5),
          q('g95', 5.5),
          q('psa10', 12),
          q('bgs10', 20),
          q('c17', 8),
          q('c18', 10),
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          String(Math.floor(unit(`${product}|vol`) * 400)),
          'Pokemon Card',
          '',
          '',
          '',
          '',
        ]
          .map(csvCell)
          .join(','),
      );
    }
  }
  return lines.join('\n') + '\n';
}

const GRADES = [
  { label: 'PSA 10 GEM MINT', factor: 12 },
  { label: 'PSA 9', factor: 3.5 },
  { label: 'BGS 9.5 Gem Mint', factor: 5.5 },
  { label: 'CGC 9', factor: 3 },
  { label: 'NM', factor: 1 },
  { label: 'Near Mint', factor: 1 },
];

async function ebayCompletedFeed(pool: pg.Pool, game: string, day: string, cardRef: string): Promise<string | null> {
  const [card] = await demoAuctionCard(pool, game, `pokemontcg:${cardRef}`);
  if (!card) return null;
  const base = basePrice(card.ext, card.rarity);
  const sales = Math.floor(unit(`${card.ext}|${day}|sales`) * 5); // 0-4 listings ended that day
  const item = Array.from({ length: sales }, (_, i) => {
    const grade = GRADES[Math.floor(unit(`${card.ext}|${day}|${i}|grade`) * GRADES.length)]!;
    const sold = unit(`${card.ext}|${day}|${i}|sold`) < 0.8;
    const id = String(100_000_000_000 + Math.floor(unit(`${card.ext}|${day}|${i}`) * 899_999_999_999));
    const ended = new Date(Date.parse(`${day}T00:00:00Z`) + Math.floor(unit(`${id}|t`) * 86_399) * 1000).toISOString();
    return {
      itemId: [id],
      title: [`${card.name} ${card.number} ${card.set_name} ${grade.label}`],
      sellingStatus: [
        {
          currentPrice: [{ '@currencyId': 'USD', __value__: quote(card.ext, `ebay|${i}`, 'ebay', base, day, grade.factor).toFixed(2) }],
          sellingState: [sold ? 'EndedWithSales' : 'EndedWithoutSales'],
        },
      ],
      listingInfo: [{ endTime: [ended] }],
    };
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

export async function startFeedServer(pool: pg.Pool, port = 0): Promise<FeedServer> {
  const server = http.createServer(async (req, res) => {
    const m = /^\/feeds\/([a-z]+)\/([a-z-]+)\/(\d{4}-\d{2}-\d{2})(?:\/([A-Za-z0-9_.%-]+))?\.(json|xml|csv)$/.exec(req.url ?? '');
    if (!m || Number.isNaN(Date.parse(m[3]!))) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"detail":"no such feed"}');
      return;
    }
    const [, source, game, day, item, ext] = m;
    try {
      const body =
        item !== undefined
          ? source === 'ebay' && ext === 'json'
            ? await ebayCompletedFeed(pool, game!, day!, decodeURIComponent(item))
            : null
          : source === 'pokemontcg' && game === 'pokemon'
            ? await pokemontcgFeed(pool, day!)
            : source === 'tcgplayer'
              ? await tcgplayerFeed(pool, game!, day!)
              : source === 'scryfall' && game === 'mtg'
                ? await scryfallFeed(pool, day!)
                : source === 'cardmarket' && ext === 'json'
                  ? await cardmarketFeed(pool, game!, day!)
                  : source === 'pricecharting' && ext === 'csv'
                    ? await priceChartingFeed(pool, game!, day!)
                    : source === 'ecb' && game === 'fx'
                      ? ecbFeed(day!)
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

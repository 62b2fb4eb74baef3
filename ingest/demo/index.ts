// First start on an empty data directory: import the real catalogues and generate demo history.
// The marker is written last, so an interrupted load is simply redone (every step is idempotent).
import type pg from 'pg';
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../../sql/runtime/log.js';
import type { Stores } from '../../sql/stores/index.js';
import { importCatalogues } from '../catalogue/index.js';
import { refreshCardBestPrices, refreshLatestPrices } from '../load/refreshLatest.js';
import { announcePricesLanded } from '../../sql/stores/priceChannels.js';
import { importSealedProducts } from '../catalogue/sealed.js';
import {
  anyCardBestPrice,
  anySealedProduct,
  seedAuctionWatchlist as seedWatchlist,
  serviceState,
  setServiceState,
} from '../../sql/demo.js';
import { generateDemoHistory } from './priceHistory.js';
import { mostValuableCards } from '../demoMarket/quotePlan.js';
import { seedAuctionWatchlistCards } from '../../sql/demoMarket.js';
import { generateSealedHistory } from './sealedHistory.js';
import path from 'node:path';
import { ImageStore } from '../../sql/stores/images.js';
import { copyDemoCardPictures } from './cardPictures.js';

const MARKER = 'demo_loaded_at';

/** How many cards the demo's auction feed watches: the most valuable ones. */
export const DEMO_WATCHED_CARDS = 300;

async function sealedHistory(config: Config, stores: Stores, today: Date): Promise<void> {
  const endDate = today.toISOString().slice(0, 10);
  await generateSealedHistory(stores.pg.pool, stores.ch.client, config.sharedDataDir, {
    days: config.demoHistoryDays,
    endDate,
    batchId: `demo-sealed-${endDate}`,
    ingestedAt: new Date(`${endDate}T00:00:00Z`),
  });
}

/** Seeds an empty watchlist; a list someone already keeps is left alone. */
async function seedAuctionWatchlist(pool: pg.Pool): Promise<void> {
  await seedWatchlist(pool, DEMO_WATCHED_CARDS);
}

/** The real card scans as those cards' pictures (the recognition index is built from them once ingestion is up). */
async function demoCardPictures(config: Config, stores: Stores, log: Logger): Promise<void> {
  await copyDemoCardPictures(stores.pg.pool, new ImageStore(path.join(config.dataDir, 'images')), config.sharedDataDir, log);
}

export async function loadDemoDataIfEmpty(config: Config, stores: Stores, log: Logger, today = new Date()): Promise<boolean> {
  if (config.demo === 'none') return false;
  const done = await serviceState(stores.pg.pool, MARKER);
  if (done.length) {
    // Data directories from before these tables existed get them filled once.
    await seedAuctionWatchlist(stores.pg.pool);
    if ((await anyCardBestPrice(stores.pg.pool)).length === 0) await refreshCardBestPrices(stores.pg.pool, null);
    if ((await anySealedProduct(stores.pg.pool)).length === 0 && (await importSealedProducts(stores.pg.pool, config.sharedDataDir)))
      await sealedHistory(config, stores, today);
    await demoCardPictures(config, stores, log);
    return false;
  }
  const started = Date.now();
  log.info('demo data: loading (first start on this data directory)', { scope: config.demo, days: config.demoHistoryDays });
  await importCatalogues(stores.pg.pool, config.sharedDataDir, config.demo, log);
  log.info('demo data: catalogue ready', { seconds: (Date.now() - started) / 1000 });
  // The auction feed quotes its watched cards: they are chosen before the history, which includes their sales.
  await seedAuctionWatchlistCards(stores.pg.pool, await mostValuableCards(stores.pg.pool, 'pokemon', DEMO_WATCHED_CARDS));
  const endDate = today.toISOString().slice(0, 10);
  const { series, variants } = await generateDemoHistory(stores.pg.pool, stores.ch.client, {
    days: config.demoHistoryDays,
    endDate,
    batchId: `demo-${endDate}`,
    ingestedAt: new Date(`${endDate}T00:00:00Z`),
    progress: ({ done, total, seconds }) =>
      log.info('demo data: generating price history', {
        series_done: done,
        series_total: total,
        percent: Math.round((done / total) * 100),
        series_per_s: Math.round(done / Math.max(seconds, 0.001)),
      }),
  });
  if (series === 0) {
    // Not marked as loaded: the next start with the catalogue files in place loads the demo.
    log.error('demo data: no catalogue found, nothing loaded; set HOLO_SHARED_DATA_DIR to the shared data folder', {
      dir: config.sharedDataDir,
    });
    return false;
  }
  log.info('demo data: price history generated', { series, variants, seconds: (Date.now() - started) / 1000 });
  await sealedHistory(config, stores, today);
  const latest = await refreshLatestPrices(stores.ch.client, stores.pg.pool);
  await refreshCardBestPrices(stores.pg.pool, null);
  log.info('demo data: latest prices materialised', { series: latest, seconds: (Date.now() - started) / 1000 });
  await announcePricesLanded(stores.redis, config.redisPrefix);
  await demoCardPictures(config, stores, log);
  await setServiceState(stores.pg.pool, MARKER, new Date().toISOString());
  return true;
}

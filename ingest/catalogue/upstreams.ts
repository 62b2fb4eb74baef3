// The catalogue from the upstreams themselves, through the same HTTP clients as the price feeds
// (budget, retries, auth errors, gzip, redirects), so a set released upstream appears at the next
// catalogueSync with no code change. shared/data stays the offline seed (index.ts).
//   pokemontcg.io (docs.pokemontcg.io): GET /v2/sets, then per set GET /v2/cards?q=set.id:<id>,
//     both paged (pageSize 250, page 1… until totalCount), X-Api-Key when set.
//   Scryfall (scryfall.com/docs/api/sets, /docs/api/bulk-data): GET /sets (following next_page),
//     then GET /bulk-data/default-cards → its download_uri, read as a stream and written in chunks.
//   LorcanaJSON (lorcanajson.org): GET /files/current/en/allCards.json (its `sets` and `cards`).
//   the-fab-cube/flesh-and-blood-cards on GitHub: json/english/set.json, csvs/english/card.csv and
//     card-printing.csv (tab-separated), from the main branch.
// Every document is parsed as its bytes arrive (@streamparser/json, csv-parse's stream API).
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import JSONParser from '@streamparser/json/jsonparser.js';
import type pg from 'pg';
import type { Logger } from '../../sql/runtime/log.js';
import { FeedFormatError } from '../sources/types.js';
import { BULK_FILE_TIMEOUT_MS, type Upstream } from '../upstreams/http.js';
import { apiKeyHeader, POKEMONTCG_PAGE_SIZE } from '../upstreams/pokemontcg.js';
import type { Upstreams } from '../upstreams/registry.js';
import { fleshAndBloodBatch, type FabSet } from './fleshAndBlood.js';
import { LORCANA_GAME, lorcanaCard, lorcanaSet, type LorcanaCard, type LorcanaSetInfo } from './lorcana.js';
import type { CardInput, CatalogueBatch } from './model.js';
import { POKEMON_GAME, pokemonCard, pokemonSet, type PtcgCard, type PtcgSet } from './pokemon.js';
import { scryfallBatch, type ScryfallCard, type ScryfallSet } from './scryfall.js';
import { upsertCatalogue, type UpsertSummary } from './upsert.js';

const JSON_ACCEPT = { Accept: 'application/json' };

/** Paths of the-fab-cube's repository as raw.githubusercontent.com serves them. */
export const FABCUBE_REPO = '/the-fab-cube/flesh-and-blood-cards/main';
export const LORCANAJSON_ALL_CARDS = '/files/current/en/allCards.json';

/** Scryfall cards written per transaction: a 500 MB bulk file is never held as one batch. */
const SCRYFALL_CHUNK = 2000;

type JsonValue = { path: string; value: unknown };

/**
 * The values at `paths` of a JSON byte stream, yielded as each completes ("$.data.*": every element
 * of data), so the caller may await between them; a document that is not JSON or is cut off is a
 * FeedFormatError naming `what`.
 */
async function* jsonValues(bytes: AsyncIterable<Uint8Array>, paths: string[], what: string): AsyncGenerator<JsonValue> {
  const parser = new JSONParser({ paths, keepStack: false });
  const ready: JsonValue[] = [];
  parser.onValue = ({ value, key, stack }) => {
    const keys = [...(stack as { key: string | number | undefined }[]).slice(1).map((s) => s.key), key];
    ready.push({ path: ['$', ...keys.map((k) => (typeof k === 'number' ? '*' : String(k)))].join('.'), value });
  };
  try {
    for await (const chunk of bytes) {
      if (chunk.length > 0) parser.write(chunk);
      yield* ready.splice(0);
    }
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (err instanceof FeedFormatError) throw err;
    throw new FeedFormatError(`${what} is not JSON (or is cut off): ${(err as Error).message}`);
  }
  yield* ready.splice(0);
}

/** A tab-separated file with a header row, as records keyed by the header's names. */
async function tsvRecords(bytes: AsyncIterable<Uint8Array>, what: string): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  const records = Readable.from(bytes).pipe(
    parse({ columns: true, delimiter: '\t', relax_column_count: true, skip_empty_lines: true, bom: true }),
  );
  try {
    for await (const r of records as AsyncIterable<Record<string, string>>) out.push(r);
  } catch (err) {
    if (err instanceof FeedFormatError) throw err;
    throw new FeedFormatError(`${what} is unreadable: ${(err as Error).message}`);
  }
  return out;
}

/** One pokemontcg.io list, page by page, until the items seen reach totalCount (never an extra empty page). */
async function* pokemontcgPages(upstream: Upstream, path: string, query: Record<string, string>): AsyncGenerator<unknown[]> {
  let seen = 0;
  for (let page = 1; ; page++) {
    const params = new URLSearchParams({ ...query, page: String(page), pageSize: String(POKEMONTCG_PAGE_SIZE) });
    const res = await upstream.fetch(`${path}?${params.toString()}`, { headers: { ...apiKeyHeader(upstream), ...JSON_ACCEPT } });
    const items: unknown[] = [];
    let total: number | null = null;
    for await (const v of jsonValues(res.body, ['$.data.*', '$.totalCount'], `pokemontcg.io ${path} page ${page}`)) {
      if (v.path === '$.totalCount') total = typeof v.value === 'number' ? v.value : null;
      else items.push(v.value);
    }
    yield items;
    seen += items.length;
    if (items.length === 0 || total === null || seen >= total) return;
  }
}

/** Every pokemontcg.io set with its cards, one set at a time (the live API's `set` and price blocks dropped). */
export async function* pokemonFromUpstream(upstream: Upstream): AsyncGenerator<CatalogueBatch> {
  const sets: PtcgSet[] = [];
  for await (const page of pokemontcgPages(upstream, '/v2/sets', { orderBy: 'releaseDate' })) sets.push(...(page as PtcgSet[]));
  for (const s of sets) {
    const cards: CardInput[] = [];
    for await (const page of pokemontcgPages(upstream, '/v2/cards', { q: `set.id:${s.id}`, orderBy: 'number' })) {
      for (const raw of page as (PtcgCard & { set?: unknown; tcgplayer?: unknown; cardmarket?: unknown })[]) {
        const { set: _set, tcgplayer: _tcgplayer, cardmarket: _cardmarket, ...card } = raw;
        cards.push(pokemonCard(card, s));
      }
    }
    yield { game: POKEMON_GAME, sets: [pokemonSet(s)], cards };
  }
}

/** A game's catalogue one set at a time, so each write is a short transaction. */
function* bySet(batch: CatalogueBatch): Generator<CatalogueBatch> {
  for (const set of batch.sets)
    yield { game: batch.game, sets: [set], cards: batch.cards.filter((c) => c.setExternalKey === set.externalKey) };
}

/** Every Scryfall set (following next_page), then the default-cards bulk file in chunks of cards. */
export async function* mtgFromUpstream(upstream: Upstream): AsyncGenerator<CatalogueBatch> {
  const sets: ScryfallSet[] = [];
  for (let next: string | null = '/sets'; next;) {
    const res = await upstream.fetch(next, { headers: JSON_ACCEPT });
    let more = false;
    let nextPage: string | null = null;
    for await (const v of jsonValues(res.body, ['$.data.*', '$.has_more', '$.next_page'], `Scryfall ${next}`)) {
      if (v.path === '$.has_more') more = v.value === true;
      else if (v.path === '$.next_page') nextPage = typeof v.value === 'string' ? v.value : null;
      else sets.push(v.value as ScryfallSet);
    }
    next = more ? nextPage : null;
  }
  const bulk = await upstream.json<{ object?: string; download_uri?: string }>('/bulk-data/default-cards', { headers: JSON_ACCEPT });
  if (bulk.object !== 'bulk_data' || typeof bulk.download_uri !== 'string' || !/^https?:\/\//.test(bulk.download_uri))
    throw new FeedFormatError(`Scryfall /bulk-data/default-cards has no download_uri: ${JSON.stringify(bulk).slice(0, 200)}`);
  const res = await upstream.fetch(bulk.download_uri, { headers: JSON_ACCEPT, timeoutMs: BULK_FILE_TIMEOUT_MS });
  let chunk: ScryfallCard[] = [];
  for await (const v of jsonValues(res.body, ['$.*'], `Scryfall ${bulk.download_uri}`)) {
    chunk.push(v.value as ScryfallCard);
    if (chunk.length >= SCRYFALL_CHUNK) {
      yield scryfallBatch(chunk, sets);
      chunk = [];
    }
  }
  if (chunk.length > 0) yield scryfallBatch(chunk, sets);
}

/** LorcanaJSON's allCards.json: its sets (keyed by set code) and every card (with its setCode). */
export async function lorcanaFromUpstream(upstream: Upstream): Promise<CatalogueBatch> {
  const res = await upstream.fetch(LORCANAJSON_ALL_CARDS, { headers: JSON_ACCEPT });
  let sets: Record<string, LorcanaSetInfo> = {};
  const cards: (LorcanaCard & { setCode?: string })[] = [];
  for await (const v of jsonValues(res.body, ['$.sets', '$.cards.*'], `LorcanaJSON ${LORCANAJSON_ALL_CARDS}`)) {
    if (v.path === '$.sets') sets = v.value as Record<string, LorcanaSetInfo>;
    else cards.push(v.value as LorcanaCard & { setCode?: string });
  }
  const known = cards.filter((c) => c.setCode !== undefined && sets[c.setCode]);
  return {
    game: LORCANA_GAME,
    sets: Object.entries(sets).map(([code, s]) =>
      lorcanaSet(
        code,
        s,
        known.filter((c) => c.setCode === code),
      ),
    ),
    cards: known.map((c) => lorcanaCard(c.setCode!, c)),
  };
}

/** the-fab-cube's set list and card and printing tables. */
export async function fleshAndBloodFromUpstream(upstream: Upstream): Promise<CatalogueBatch> {
  const setsPath = `${FABCUBE_REPO}/json/english/set.json`;
  const sets: FabSet[] = [];
  for await (const v of jsonValues((await upstream.fetch(setsPath, { headers: JSON_ACCEPT })).body, ['$.*'], setsPath))
    sets.push(v.value as FabSet);
  const table = async (name: string) => {
    const path = `${FABCUBE_REPO}/csvs/english/${name}`;
    return tsvRecords((await upstream.fetch(path, { headers: { Accept: 'text/csv, text/plain' } })).body, path);
  };
  return fleshAndBloodBatch(sets, await table('card.csv'), await table('card-printing.csv'));
}

/** What a sync wrote per game, and the games whose upstream failed (with the upstream's reason). */
export type CatalogueSyncOutcome = { imported: UpsertSummary[]; failed: { game: string; error: Error }[] };

/**
 * Syncs every game's catalogue from its upstream: new sets, cards, printings and variants are
 * added, existing ones updated in place (upserts on upstream keys: ids never change). A failing
 * upstream does not stop the others; it is reported with its reason.
 */
export async function syncCataloguesFromUpstreams(
  pool: pg.Pool,
  upstreams: Upstreams,
  log: Logger,
  onProgress: (step: string) => void = () => undefined,
): Promise<CatalogueSyncOutcome> {
  const out: CatalogueSyncOutcome = { imported: [], failed: [] };
  // What onProgress throws (a cancelled sync) stops the whole sync; it is not an upstream's failure.
  let stopped: { reason: unknown } | null = null;
  const report = (step: string) => {
    try {
      onProgress(step);
    } catch (reason) {
      stopped = { reason };
      throw reason;
    }
  };
  const games: [string, string, () => AsyncIterable<CatalogueBatch>][] = [
    ['pokemon', 'pokemontcg.io', () => pokemonFromUpstream(upstreams.pokemontcg)],
    [
      'flesh-and-blood',
      'the-fab-cube',
      async function* () {
        yield* bySet(await fleshAndBloodFromUpstream(upstreams.fabcube));
      },
    ],
    [
      'lorcana',
      'LorcanaJSON',
      async function* () {
        yield* bySet(await lorcanaFromUpstream(upstreams.lorcanajson));
      },
    ],
    ['mtg', 'Scryfall', () => mtgFromUpstream(upstreams.scryfall)],
  ];
  for (const [game, source, batches] of games) {
    try {
      const total: UpsertSummary = { game, sets: 0, cards: 0, printings: 0, variants: 0, externalIdChanges: 0 };
      for await (const batch of batches()) {
        const s = await upsertCatalogue(pool, batch, `catalogue sync: ${source}`);
        total.sets += s.sets;
        total.cards += s.cards;
        total.printings += s.printings;
        total.variants += s.variants;
        total.externalIdChanges += s.externalIdChanges;
        report(`${game}: ${total.cards} cards`);
      }
      log.info('catalogue synced from upstream', { source, ...total });
      out.imported.push(total);
    } catch (err) {
      if (stopped) throw (stopped as { reason: unknown }).reason;
      log.warn('catalogue upstream failed', { source, game, error: (err as Error).message });
      out.failed.push({ game, error: err as Error });
    }
  }
  return out;
}

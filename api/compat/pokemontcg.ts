// pokemontcg.io v2 compatibility: Holo's Pokémon catalogue and latest prices in pokemontcg.io's
// shapes, ids ({set}-{number}) and search syntax, so its clients keep working against Holo.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import {
  compileOrderBy,
  compileQ,
  pokemontcgCards,
  pokemontcgCardsSearch,
  pokemontcgPrices,
  pokemontcgSets,
  pokemontcgSetsSearch,
  QFieldError,
  type PokemontcgCardRow,
  type PokemontcgPriceRow,
  type PokemontcgSetRow,
} from '../../sql/pokemontcg.js';
import {
  POKEMONTCG_CM_FIELDS,
  POKEMONTCG_CM_UNREPORTED,
  POKEMONTCG_FINISHES,
  POKEMONTCG_CARD_FIELDS,
  POKEMONTCG_TCG_FIELDS,
  type CompatCard,
  type CompatListQuery,
  type CompatSet,
} from '../../schemas/pokemontcg.js';
import { cardImageUrl } from '../images/urls.js';
import { marketplaceUrls } from '../legacy/marketplaceUrls.js';
import { InvalidInput, NotFound } from '../../schemas/errors.js';

type ListQuery = CompatListQuery;
type CardDoc = Record<string, unknown>;
type Page<T> = { data: T[]; page: number; pageSize: number; count: number; totalCount: number };

const invalid = (param: string, msg: string) => new InvalidInput([{ loc: ['query', param], msg, type: 'value_error' }]);

const pick = (doc: CardDoc, select: string[] | undefined) =>
  select ? Object.fromEntries(Object.entries(doc).filter(([k]) => select.includes(k))) : doc;

/** Compiles q and orderBy, turning what the grammar allows but the fields do not into a 422. */
function compile(query: ListQuery, scope: 'card' | 'set') {
  let where = { where: '', params: [] as unknown[] };
  let order = '';
  try {
    if (query.q) {
      const compiled = compileQ(query.q, scope, 3);
      where = { where: ` AND ${compiled.where}`, params: compiled.params };
    }
  } catch (err) {
    if (err instanceof QFieldError) throw invalid('q', err.message);
    throw err;
  }
  try {
    if (query.orderBy) order = compileOrderBy(query.orderBy, scope);
  } catch (err) {
    if (err instanceof QFieldError) throw invalid('orderBy', err.message);
    throw err;
  }
  return { fragments: { where: where.where, order }, params: where.params };
}

async function searchPage(
  db: Db,
  search: typeof pokemontcgCardsSearch,
  query: ListQuery,
  scope: 'card' | 'set',
): Promise<{ ids: number[]; total: number }> {
  const { fragments, params } = compile(query, scope);
  const rows = await search(db, fragments, [query.pageSize, (query.page - 1) * query.pageSize, ...params]);
  if (rows.length > 0 || query.page === 1) return { ids: rows.map((r) => r.id), total: rows[0]?.total ?? 0 };
  // Past the last page: the count comes from the first row.
  const first = await search(db, fragments, [1, 0, ...params]);
  return { ids: [], total: first[0]?.total ?? 0 };
}

function setDoc(s: PokemontcgSetRow): CardDoc {
  const { legalities, ptcgoCode } = s.attributes as { legalities?: Record<string, string>; ptcgoCode?: string };
  return {
    id: s.id,
    name: s.name,
    series: s.series,
    printedTotal: s.printed_total,
    total: s.total,
    legalities: legalities ?? {},
    ...(ptcgoCode ? { ptcgoCode } : {}),
    releaseDate: s.release_date,
    updatedAt: s.updated_at,
    images: { ...(s.symbol_url ? { symbol: s.symbol_url } : {}), ...(s.logo_url ? { logo: s.logo_url } : {}) },
  };
}

const slashDay = (isoDay: string) => isoDay.replaceAll('-', '/');
const newest = (rows: PokemontcgPriceRow[]) => slashDay(rows.map((r) => r.as_of).reduce((a, b) => (a > b ? a : b)));

/** pokemontcg.io's price block key of a variant: 1st Edition and Unlimited holo are told apart where a 1st Edition exists. */
function tcgplayerKey(finish: string, printRun: string, hasFirstEdition: boolean): string | null {
  if (printRun === '1st-edition') return finish === 'holofoil' ? '1stEditionHolofoil' : finish === 'normal' ? '1stEditionNormal' : null;
  if (printRun !== 'unlimited') return null;
  if (hasFirstEdition && finish === 'holofoil') return 'unlimitedHolofoil';
  return Object.entries(POKEMONTCG_FINISHES).find(([, f]) => f.printRun === null && f.finish === finish)?.[0] ?? null;
}

function priceBlocks(card: PokemontcgCardRow, set: PokemontcgSetRow, prices: PokemontcgPriceRow[]): CardDoc {
  const urls = marketplaceUrls({ name: card.name, number: card.number, set_name: set.name, game: 'pokemon', eu: null, us: null }, 'normal');
  const out: CardDoc = {};
  const us = prices.filter((p) => p.source === 'tcgplayer');
  if (us.length) {
    const hasFirstEdition = us.some((p) => p.print_run === '1st-edition');
    const blocks: Record<string, Record<string, number | null>> = {};
    for (const p of us) {
      const key = tcgplayerKey(p.finish, p.print_run, hasFirstEdition);
      const field = POKEMONTCG_TCG_FIELDS.find(([, type]) => type === p.price_type)?.[0];
      if (!key || !field) continue;
      blocks[key] ??= Object.fromEntries(POKEMONTCG_TCG_FIELDS.map(([f]) => [f, null]));
      blocks[key][field] ??= p.amount;
    }
    if (Object.keys(blocks).length) out.tcgplayer = { url: urls.us_marketplace_url, updatedAt: newest(us), prices: blocks };
  }
  const eu = prices.filter((p) => p.source === 'cardmarket' && p.print_run !== '1st-edition');
  if (eu.length) {
    const fields: Record<string, number | null> = {};
    for (const [field, type, finish] of POKEMONTCG_CM_FIELDS) {
      const hit = eu.find((p) => p.price_type === type && (finish ? p.finish === finish : p.finish !== 'reverse-holofoil'));
      fields[field] = hit?.amount ?? null;
    }
    for (const field of POKEMONTCG_CM_UNREPORTED) fields[field] = null;
    out.cardmarket = { url: urls.european_marketplace_url, updatedAt: newest(eu), prices: fields };
  }
  return out;
}

function cardDoc(card: PokemontcgCardRow, set: PokemontcgSetRow, prices: PokemontcgPriceRow[], origin: string): CardDoc {
  const { upstream_id: _id, ...attributes } = card.attributes;
  const doc: CardDoc = {
    id: card.id,
    name: card.name,
    ...(card.supertype !== null ? { supertype: card.supertype } : {}),
    ...(card.subtypes.length ? { subtypes: card.subtypes } : {}),
    ...attributes,
    set: setDoc(set),
    number: card.number,
    ...(card.artist !== null ? { artist: card.artist } : {}),
    ...(card.rarity !== null ? { rarity: card.rarity } : {}),
    legalities: card.legalities,
    images: Object.fromEntries(
      (['small', 'large'] as const).filter((k) => card.image_kinds.includes(k)).map((k) => [k, origin + cardImageUrl(card.card_id, k)]),
    ),
    ...priceBlocks(card, set, prices),
  };
  // pokemontcg.io's field order, which clients that print the JSON show.
  return Object.fromEntries(POKEMONTCG_CARD_FIELDS.filter((k) => k in doc).map((k) => [k, doc[k]]));
}

async function cardDocs(db: Db, rows: PokemontcgCardRow[], origin: string): Promise<CardDoc[]> {
  if (rows.length === 0) return [];
  const [sets, prices] = await Promise.all([
    pokemontcgSets(db, [...new Set(rows.map((r) => r.set_id))], null),
    pokemontcgPrices(
      db,
      rows.map((r) => r.card_id),
    ),
  ]);
  const setById = new Map(sets.map((s) => [s.set_id, s]));
  const pricesOf = new Map<number, PokemontcgPriceRow[]>();
  for (const p of prices) {
    const list = pricesOf.get(p.card_id);
    if (list) list.push(p);
    else pricesOf.set(p.card_id, [p]);
  }
  return rows.map((r) => cardDoc(r, setById.get(r.set_id)!, pricesOf.get(r.card_id) ?? [], origin));
}

export async function listCards(db: Db, query: ListQuery, origin: string): Promise<Page<z.input<typeof CompatCard>>> {
  const { ids, total } = await searchPage(db, pokemontcgCardsSearch, query, 'card');
  const rows = ids.length ? await pokemontcgCards(db, ids, null) : [];
  const byId = new Map(rows.map((r) => [r.card_id, r]));
  const docs = await cardDocs(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
    origin,
  );
  const data = docs.map((d) => pick(d, query.select));
  return { data, page: query.page, pageSize: query.pageSize, count: data.length, totalCount: total };
}

export async function cardById(
  db: Db,
  id: string,
  select: string[] | undefined,
  origin: string,
): Promise<{ data: z.input<typeof CompatCard> }> {
  const rows = await pokemontcgCards(db, null, [id]);
  if (rows.length === 0) throw new NotFound('card');
  const [doc] = await cardDocs(db, rows, origin);
  return { data: pick(doc!, select) };
}

export async function listSets(db: Db, query: ListQuery): Promise<Page<z.input<typeof CompatSet>>> {
  const { ids, total } = await searchPage(db, pokemontcgSetsSearch, query, 'set');
  const rows = ids.length ? await pokemontcgSets(db, ids, null) : [];
  const byId = new Map(rows.map((r) => [r.set_id, r]));
  const data = ids.flatMap((id) => {
    const s = byId.get(id);
    return s ? [pick(setDoc(s), query.select)] : [];
  });
  return { data, page: query.page, pageSize: query.pageSize, count: data.length, totalCount: total };
}

export async function setById(db: Db, id: string, select: string[] | undefined): Promise<{ data: z.input<typeof CompatSet> }> {
  const [row] = await pokemontcgSets(db, null, [id]);
  if (!row) throw new NotFound('set');
  return { data: pick(setDoc(row), select) };
}

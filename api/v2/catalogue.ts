// The v2 catalogue: its typed queries (sql/v2Catalogue.ts) shaped into the spec's responses;
// cataloguePresenter.ts adds the paging the routes answer with.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import * as q from '../../sql/v2Catalogue.js';
import type { CardDetail, Game, ListedCard, ListedSet, ResolvedCard, SetHeader } from '../../schemas/v2.js';
import { CROSS_REF_KEYS } from '../../schemas/v2.js';
import { cardImageUrl, placeholderImage } from '../images/urls.js';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../../schemas/errors.js';

type GameRow = z.output<typeof Game>;

export async function listGamesWithCards(db: Db): Promise<GameRow[]> {
  return q.v2Games(db);
}

export async function gameBySlug(db: Db, slug: string): Promise<(GameRow & { id: number }) | null> {
  const rows = await q.v2Game(db, slug);
  return rows[0] ?? null;
}

/** A page of a game's sets; with updatedAfter only the sets that changed since, and their count. */
export async function setsOfGame(
  db: Db,
  game: { id: number; sets: number | null },
  query: { page: number; size: number; updated_after?: string },
): Promise<{ total: number; items: z.input<typeof ListedSet>[] }> {
  const after = query.updated_after ?? null;
  const [items, total] = await Promise.all([
    q.v2SetsOfGame(db, game.id, query.size, (query.page - 1) * query.size, after),
    after === null ? (game.sets ?? 0) : q.v2SetsChangedCount(db, game.id, after).then((r) => r[0]!.n),
  ]);
  return { total, items };
}

export async function setHeader(db: Db, setId: number): Promise<(z.input<typeof SetHeader> & { cards_total: number }) | null> {
  const rows = await q.v2SetHeader(db, setId);
  const r = rows[0];
  if (!r) return null;
  const { game_slug, game_name, ...rest } = r;
  return { ...rest, game: { slug: game_slug, name: game_name } };
}

/** A page of a set's cards; with updatedAfter only the cards that changed since, and their count. */
export async function cardsOfSet(
  db: Db,
  set: { id: number; cards_total: number },
  query: { page: number; size: number; updated_after?: string },
): Promise<{ total: number; items: z.input<typeof ListedCard>[] }> {
  const after = query.updated_after ?? null;
  const [rows, total] = await Promise.all([
    q.v2CardsOfSet(db, set.id, query.size, (query.page - 1) * query.size, after),
    after === null ? set.cards_total : q.v2CardsChangedCount(db, set.id, after).then((r) => r[0]!.n),
  ]);
  return { total, items: rows.map(({ has_image, ...c }) => ({ ...c, thumbnail_url: has_image ? cardImageUrl(c.id, 'small') : null })) };
}

export async function cardDetail(
  db: Db,
  cardId: number,
  hasOriginal: (cardId: number, kind: 'small' | 'large') => boolean,
): Promise<z.input<typeof CardDetail> | null> {
  const [cards, refs, images, variants, prices] = await Promise.all([
    q.v2Card(db, cardId),
    q.v2CardCrossRefs(db, cardId),
    q.v2CardImages(db, cardId),
    q.v2CardPrintings(db, cardId),
    q.v2CardLatestPrices(db, cardId),
  ]);
  const c = cards[0];
  if (!c) return null;

  const pricesByVariant = new Map<number, z.input<typeof CardDetail>['printings'][number]['variants'][number]['prices']>();
  for (const p of prices) {
    let bucket = pricesByVariant.get(p.variant_id);
    if (!bucket) pricesByVariant.set(p.variant_id, (bucket = { eu: [], us: [], graded: [] }));
    const amount = Number(p.amount);
    if (p.grading_company !== 'raw') {
      bucket.graded.push({
        source: p.source,
        grading_company: p.grading_company,
        grade: p.grade,
        currency: p.currency,
        amount,
        as_of: p.as_of,
      });
    } else if (p.region === 'eu' || p.region === 'us') {
      bucket[p.region].push({ source: p.source, price_type: p.price_type, currency: p.currency, amount, as_of: p.as_of });
    }
  }

  const printings: z.input<typeof CardDetail>['printings'] = [];
  for (const row of variants) {
    let printing = printings.at(-1);
    if (!printing || printing.id !== row.printing_id) {
      printing = {
        id: row.printing_id,
        language: row.language,
        print_run: row.print_run,
        collector_number: row.p_number,
        is_promo: row.is_promo,
        variants: [],
      };
      printings.push(printing);
    }
    if (row.id === null) continue;
    // A variant's own columns are set whenever its id is (v2_card_printings.sql).
    printing.variants.push({
      id: row.id,
      finish: row.finish!,
      variant_label: row.variant_label!,
      print_rarity: row.print_rarity,
      is_ex: row.is_ex,
      is_v: row.is_v,
      image_url: row.image_url,
      image_is_fallback: row.image_is_fallback,
      prices: pricesByVariant.get(row.id) ?? { eu: [], us: [], graded: [] },
    });
  }

  const crossRefs = Object.fromEntries(CROSS_REF_KEYS.map((k) => [k, refs.find((r) => r.ref_key === k)?.ref_value ?? null])) as z.input<
    typeof CardDetail
  >['cross_refs'];
  return {
    id: c.id,
    name: c.name,
    collector_number: c.collector_number,
    rarity: c.rarity,
    card_type: c.card_type,
    game: { slug: c.game_slug, name: c.game_name },
    set: { id: c.set_id, code: c.set_code, name: c.set_name },
    cross_refs: crossRefs,
    images: images.length
      ? images.map((i) => ({
          url: cardImageUrl(c.id, i.kind),
          source: i.source,
          width: i.width,
          height: i.height,
          format: 'avif',
          is_placeholder: !hasOriginal(c.id, i.kind),
        }))
      : [placeholderImage(c.id)],
    printings,
  };
}

/** The card's variants in display order: the first is the default for history. */
export async function variantIdsOfCard(db: Db, cardId: number): Promise<number[] | null> {
  const rows = await q.v2CardVariantIds(db, cardId);
  if (rows.length === 0) return null;
  return rows.flatMap((r) => (r.variant_id === null ? [] : [r.variant_id]));
}

export async function resolveCards(
  db: Db,
  query: { game: string; name: string; number?: string; set?: string },
): Promise<z.input<typeof ResolvedCard>[]> {
  // "004", "4" and "4/102" name the same collector number.
  const number =
    query.number
      ?.split('/')[0]!
      .replace(/^0+(?=.)/, '')
      .toLowerCase() ?? null;
  const setId = query.set && /^\d+$/.test(query.set) ? Number(query.set) : null;
  const rows = await q.v2ResolveCards(db, query.game, query.name, number, query.set ?? null, setId);
  return rows.map(({ has_image, set_id, set_code, set_name, ...c }) => ({
    ...c,
    thumbnail_url: has_image ? cardImageUrl(c.id, 'small') : null,
    set: { id: set_id, code: set_code, name: set_name },
  }));
}

export async function catalogueTotals(db: Db): Promise<{ cards: number; sets: number; games: number; variants: number; images: number }> {
  const rows = await q.catalogueTotals(db);
  return rows[0]!;
}

/** A game and a page of its sets; 404 when there is no such game or it has no cards. */
export async function gameWithSets(db: Db, slug: string, query: { page: number; size: number; updated_after?: string }) {
  const game = await gameBySlug(db, slug);
  if (!game || game.cards === 0) throw new NotFound('game');
  return { game, sets: await setsOfGame(db, game, query) };
}

/** A set and a page of its cards; 404 when there is no such set. */
export async function setWithCards(db: Db, setId: number, query: { page: number; size: number; updated_after?: string }) {
  const header = await setHeader(db, setId);
  if (!header) throw new NotFound('set');
  return { header, cards: await cardsOfSet(db, header, query) };
}

/** Every card the query names (at most 50, newest set first); 404 when none. */
export async function resolvedCards(db: Db, query: { game: string; name: string; number?: string; set?: string }) {
  const items = await resolveCards(db, query);
  if (items.length === 0) throw new NotFound('card');
  return items;
}

/** A card with its printings, variants and latest prices; 404 when there is no such card. */
export async function cardDetailOf({ db, images }: Pick<AppDeps, 'db' | 'images'>, cardId: number) {
  const card = await cardDetail(db, cardId, (id, kind) => images.hasOriginal(id, kind));
  if (!card) throw new NotFound('card');
  return card;
}

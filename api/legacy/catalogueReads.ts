// The legacy catalogue surface: its typed queries (sql/legacyCatalogue.ts) shaped into the spec's responses.
import type { z } from 'zod';
import type { Analytics } from '../../sql/stores/analytics.js';
import type { Db } from '../../sql/stores/db.js';
import * as q from '../../sql/legacyCatalogue.js';
import { cardImageUrl } from '../images/urls.js';
import type { CardListItem, LegacyCard, LegacyCardDetail, LegacyCardPrice, SetCompletion, Tcg, TcgListItem } from '../../schemas/legacy.js';
import { variantName } from './variants.js';
import { CONDITION_FACTORS } from '../../schemas/market.js';

type CardRow = q.CardRow;

/** A card row as the legacy card shape: our own origin serves local_image_url. */
export function legacyCard(r: CardRow): z.input<typeof LegacyCard> {
  return {
    id: r.id,
    card_set_id: r.card_set_id,
    name: r.name,
    number: r.number,
    rarity: r.rarity,
    card_type: r.card_type,
    image_url: r.image_url,
    local_image_url: cardImageUrl(r.id, 'large'),
    attributes: r.attributes,
  };
}

export async function listTcgs(db: Db, slug: string | null = null): Promise<z.input<typeof TcgListItem>[]> {
  return q.legacyTcgs(db, slug);
}

export async function tcgBySlug(db: Db, slug: string): Promise<z.input<typeof Tcg> | null> {
  const [row] = await listTcgs(db, slug);
  if (!row) return null;
  const { created_at: _createdAt, ...tcg } = row;
  return tcg;
}

export async function setsOfTcg(db: Db, slug: string, limit: number, offset: number, setId: number | null = null) {
  const rows = await q.legacySets(db, slug, limit, offset, setId);
  return { items: rows.map(({ total: _total, ...s }) => s), total: rows[0]?.total ?? 0 };
}

export type CardFilters = { setId?: number; rarity?: string; name?: string; limit: number; offset: number };

export async function cardsOfTcg(db: Db, slug: string, f: CardFilters) {
  const rows = await q.legacyCards(db, slug, f.setId ?? null, f.rarity ?? null, f.name ?? null, f.limit, f.offset);
  // A page past the end has no rows to carry the total: count once more.
  const total =
    rows[0]?.total ??
    (f.offset > 0 ? ((await q.legacyCards(db, slug, f.setId ?? null, f.rarity ?? null, f.name ?? null, 1, 0))[0]?.total ?? 0) : 0);
  return { items: rows.map(legacyCard), total };
}

type PriceRow = q.CardPriceRow;

/** Latest ungraded price per source and variant of the cards. */
export async function priceRowsOfCards(db: Db, cardIds: number[]): Promise<Map<number, (PriceRow & { variant: string })[]>> {
  const rows = await q.legacyCardPrices(db, cardIds);
  const out = new Map<number, (PriceRow & { variant: string })[]>();
  for (const r of rows) out.set(r.card_id, [...(out.get(r.card_id) ?? []), { ...r, variant: variantName(r.finish, r.print_run) }]);
  return out;
}

export type CardDetailPlus = z.input<typeof LegacyCardDetail> & {
  set_name: string;
  set_code: string;
  tcg_slug: string;
  best_price: number | null;
};

/** Cards with their prices; a card of another game than `slug` (when given) is not found. */
export async function cardDetails(db: Db, cardIds: number[], slug: string | null = null): Promise<CardDetailPlus[]> {
  const [rows, prices] = await Promise.all([q.legacyCardDetails(db, cardIds, slug), priceRowsOfCards(db, cardIds)]);
  return rows.map((r) => ({
    ...legacyCard(r),
    prices: (prices.get(r.id) ?? []).map((p): z.input<typeof LegacyCardPrice> => ({
      source: p.source,
      market_price: p.market_price,
      currency: p.currency,
      variant: p.variant,
    })),
    master_card_id: r.master_card_id,
    illustrator: r.illustrator,
    legalities: r.legalities,
    set_name: r.set_name,
    set_code: r.set_code,
    tcg_slug: r.tcg_slug,
    best_price: r.best_price,
  }));
}

export async function setStats(db: Db, setId: number) {
  const [row] = await q.legacySetStats(db, setId);
  return row ? { ...row, currency: 'USD' as const, set_value: row.total_value } : null;
}

const listItem = (r: q.ListedCard): z.input<typeof CardListItem> => ({
  ...legacyCard(r),
  set_name: r.set_name,
  set_code: r.set_code,
  tcg_slug: r.tcg_slug,
  best_price: r.best_price,
  currency: 'USD',
  created_at: r.created_at,
});

export async function topCards(db: Db, opts: { setId: number | null; slug: string | null; limit: number }) {
  const rows = await q.legacyTopCards(db, opts.setId, opts.slug, opts.limit);
  return rows.map(({ card_id, ...r }) => listItem({ ...r, id: card_id }));
}

export async function cardsAddedSince(db: Db, since: Date, slug: string | null, limit: number) {
  const rows = await q.legacyCardsAdded(db, since.toISOString(), slug, limit);
  return { items: rows.map(listItem), total: rows[0]?.total ?? 0 };
}

export async function setCompletion(db: Db, setId: number): Promise<z.input<typeof SetCompletion> | null> {
  const rows = await q.legacySetCompletion(db, setId);
  if (rows.length === 0) return null;
  const byRarity = rows.filter((r) => r.cards > 0).map((r) => ({ rarity: r.rarity, cards: r.cards, value: r.value }));
  const catalogued = byRarity.reduce((n, r) => n + r.cards, 0);
  return {
    set_id: setId,
    total_cards: Math.max(rows[0]!.printed_total, 0) || catalogued,
    catalogued_cards: catalogued,
    secret_cards: rows.reduce((n, r) => n + r.secret, 0),
    by_rarity: byRarity,
    complete_set_value: Math.round(byRarity.reduce((n, r) => n + r.value, 0) * 100) / 100,
    priced_cards: rows.reduce((n, r) => n + r.priced, 0),
    currency: 'USD',
  };
}

export async function relatedLanguageSets(db: Db, setId: number) {
  return q.relatedLanguageSets(db, setId);
}

export async function setLanguage(db: Db, setId: number): Promise<string | null> {
  const [row] = await q.setLanguage(db, setId);
  return row?.language ?? null;
}

type NamedCard = q.NamedCard;

/**
 * A Pokémon card's evolution line from the upstream's evolvesFrom / evolvesTo: back to the basic,
 * then forward, one stage per step (several cards at a stage when the line branches). Each name
 * links to a card of that name, from the same set when there is one.
 */
export async function evolutionChain(
  db: Db,
  cardId: number,
): Promise<{ stage: number; name: string; card_id: number | null }[] | 'not-pokemon' | null> {
  const [card] = await q.cardWithGame(db, cardId);
  if (!card) return null;
  if (card.game !== 'pokemon' || card.card_type !== 'Pokémon') return 'not-pokemon';
  const lookup = async (names: string[]) => {
    if (names.length === 0) return new Map<string, NamedCard>();
    const rows = await q.cardsByName(
      db,
      card.game_id,
      card.set_id,
      names.map((n) => n.toLowerCase()),
    );
    return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
  };
  // Back to the basic (Pokémon lines have at most three stages; the bound also stops a cycle).
  const back: { name: string; found: NamedCard | null }[] = [];
  let from = card.attributes.evolvesFrom;
  for (let i = 0; from && i < 3; i++) {
    const found = (await lookup([from])).get(from.toLowerCase()) ?? null;
    back.unshift({ name: from, found });
    from = found?.attributes.evolvesFrom;
  }
  const chain: { stage: number; name: string; card_id: number | null }[] = back.map((b, i) => ({
    stage: i,
    name: b.name,
    card_id: b.found?.id ?? null,
  }));
  chain.push({ stage: back.length, name: card.name, card_id: card.id });
  let frontier = card.attributes.evolvesTo ?? [];
  for (let stage = back.length + 1; frontier.length && stage < 4; stage++) {
    const found = await lookup(frontier);
    for (const name of frontier) chain.push({ stage, name, card_id: found.get(name.toLowerCase())?.id ?? null });
    frontier = [...new Set(frontier.flatMap((n) => found.get(n.toLowerCase())?.attributes.evolvesTo ?? []))];
  }
  return chain;
}

export async function marketplaceRefs(db: Db, cardId: number) {
  const [card] = await q.marketplaceRefsOf(db, cardId);
  return card ?? null;
}

export type SearchFilters = {
  q: string;
  tcg_slug?: string;
  set_id?: number;
  rarity?: string;
  min_price?: number;
  max_price?: number;
  foil_status?: string;
  condition?: keyof typeof CONDITION_FACTORS;
  language?: string;
  limit: number;
  offset: number;
};

export async function searchCards(db: Db, f: SearchFilters) {
  // Reference prices are near-mint: a condition's price is the reference × its factor, so the
  // price bounds are compared with the reference divided by that factor.
  const factor = CONDITION_FACTORS[f.condition ?? 'NM'];
  return q.legacySearch(
    db,
    f.q,
    f.tcg_slug ?? null,
    f.set_id ?? null,
    f.rarity ?? null,
    f.min_price === undefined ? null : f.min_price / factor,
    f.max_price === undefined ? null : f.max_price / factor,
    f.foil_status ?? null,
    f.language ?? null,
    f.limit,
    f.offset,
  );
}

/** Search with each hit's 7-day price change and how it matched (spec: /api/cards/search). */
export async function searchCatalogue(db: Db, analytics: Analytics, query: SearchFilters) {
  const rows = await searchCards(db, query);
  const withPrice = rows.filter((r) => r.price_variant_id !== null);
  const changes = withPrice.length
    ? await q.variantChange7d(analytics, {
        card_ids: withPrice.map((r) => r.id),
        variant_ids: withPrice.map((r) => r.price_variant_id!),
      })
    : [];
  const change = new Map(
    changes.map((c) => [Number(c.variant_id), c.past > 0 ? Math.round(((c.current - c.past) / c.past) * 10000) / 100 : null]),
  );
  const MATCH = ['exact', 'prefix', 'words', 'similar'] as const;
  const factor = CONDITION_FACTORS[query.condition ?? 'NM'];
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => {
      const card = legacyCard(r);
      return {
        ...card,
        display_image_url: card.local_image_url,
        set_name: r.set_name,
        set_code: r.set_code,
        tcg_slug: r.tcg_slug,
        best_price: r.best_price === null || factor === 1 ? r.best_price : Math.round(r.best_price * factor * 100) / 100,
        price_change_7d: r.price_variant_id === null ? null : (change.get(r.price_variant_id) ?? null),
        match: MATCH[r.rank]!,
      };
    }),
  };
}

// The legacy catalogue service (spec: "Legacy catalogue"): what each route reads, with its 404s,
// callable without HTTP. The reads are catalogueReads.ts (PostgreSQL) and sealed.ts (sealed
// products, prices from ClickHouse); cataloguePresenter.ts shapes what these return.
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { Db } from '../../sql/stores/db.js';
import {
  cardDetails,
  cardsOfTcg,
  evolutionChain,
  marketplaceRefs,
  relatedLanguageSets,
  setLanguage,
  setsOfTcg,
  tcgBySlug,
  topCards,
} from './catalogueReads.js';
import { marketplaceUrls } from './marketplaceUrls.js';
import { daysAgo } from './cardPriceAnalytics.js';
import { sealedHistory, sealedProducts } from './sealed.js';
import type { GameCardsQuery, MarketplaceUrlsQuery, SealedQuery } from '../../schemas/legacy.js';
import { DomainError, NotFound } from '../../schemas/errors.js';

/** The game of that slug; 404 when there is none. */
export async function tcgOf(db: Db, slug: string) {
  const tcg = await tcgBySlug(db, slug);
  if (!tcg) throw new NotFound('TCG');
  return tcg;
}

/** The dearest cards of a set; 404 when there is no such set. */
export async function topCardsOfSet(db: Db, setId: number, limit: number) {
  if (!(await setLanguage(db, setId))) throw new NotFound('set');
  return topCards(db, { setId, slug: null, limit });
}

/** The set's language and the same set in other languages; 404 when there is no such set. */
export async function relatedLanguagesOf(db: Db, setId: number) {
  const language = await setLanguage(db, setId);
  if (!language) throw new NotFound('set');
  return { language, related: await relatedLanguageSets(db, setId) };
}

/** The cards of `ids` found (in the order asked), the ids not found, and the cheapest and dearest priced one. */
export async function comparedCards(db: Db, ids: number[]) {
  const found = await cardDetails(db, ids);
  const byId = new Map(found.map((c) => [c.id, c]));
  const cards = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const priced = cards.filter((c) => c.best_price !== null).sort((a, b) => a.best_price! - b.best_price!);
  return { cards, missing: ids.filter((id) => !byId.has(id)), cheapest: priced[0]?.id ?? null, dearest: priced.at(-1)?.id ?? null };
}

/** The card's buy-now links for a variant; 404 when there is no such card. */
export async function marketplaceUrlsOf(db: Db, cardId: number, query: z.output<typeof MarketplaceUrlsQuery>) {
  const refs = await marketplaceRefs(db, cardId);
  if (!refs) throw new NotFound('card');
  return marketplaceUrls(refs, query.variant);
}

/** A Pokémon card's evolution line; 404 for no such card or a card of another game. */
export async function evolutionChainOf(db: Db, cardId: number) {
  const chain = await evolutionChain(db, cardId);
  if (chain === null) throw new NotFound('card');
  if (chain === 'not-pokemon') throw new DomainError('not_found', 'evolution chains exist for Pokémon cards only');
  return chain;
}

/** A page of the game's sets, newest first; 404 when there is no such game. */
export async function setsOfGame(db: Db, slug: string, query: { limit: number; offset: number }) {
  await tcgOf(db, slug);
  return setsOfTcg(db, slug, query.limit, query.offset);
}

/** One set of the game; 404 when the game has no such set. */
export async function setOfGame(db: Db, slug: string, setId: number) {
  const { items } = await setsOfTcg(db, slug, 1, 0, setId);
  if (!items[0]) throw new NotFound('set');
  return items[0];
}

/** A page of a set's cards in collector-number order; 404 when the game has no such set. */
export async function cardsOfGameSet(db: Db, slug: string, setId: number, query: { limit: number; offset: number }) {
  await setOfGame(db, slug, setId);
  return cardsOfTcg(db, slug, { setId, limit: query.limit, offset: query.offset });
}

/** A page of the game's sealed products, newest first, with current prices; 404 when there is no such game. */
export async function sealedOfGame(
  { db, analytics }: Pick<AppDeps, 'db' | 'analytics'>,
  slug: string,
  query: z.output<typeof SealedQuery>,
) {
  await tcgOf(db, slug);
  return sealedProducts(db, analytics, { slug, setId: query.set_id ?? null, limit: query.limit, offset: query.offset });
}

/** One sealed product of the game with its prices and a year of daily history; 404 when there is none. */
export async function sealedProductOf({ db, analytics }: Pick<AppDeps, 'db' | 'analytics'>, slug: string, productId: number) {
  const { items } = await sealedProducts(db, analytics, { slug, setId: null, limit: 1, offset: 0, productId });
  if (!items[0]) throw new NotFound('sealed product');
  return { ...items[0], price_history: await sealedHistory(analytics, productId, daysAgo(364)) };
}

/** A page of the game's cards, filtered; 404 when there is no such game. */
export async function cardsOfGame(db: Db, slug: string, query: z.output<typeof GameCardsQuery>) {
  await tcgOf(db, slug);
  return cardsOfTcg(db, slug, { setId: query.set_id, rarity: query.rarity, name: query.name, limit: query.limit, offset: query.offset });
}

/** One card of the game with its current prices; 404 when the game has no such card. */
export async function cardOfGame(db: Db, slug: string, cardId: number) {
  const [card] = await cardDetails(db, [cardId], slug);
  if (!card) throw new NotFound('card');
  return card;
}

// The legacy catalogue (spec: "Legacy catalogue"), all free. Catalogue reads are PostgreSQL only;
// search adds one ClickHouse query for the 7-day change of the page it returns.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import {
  cardDetails,
  cardsAddedSince,
  cardsOfTcg,
  evolutionChain,
  listTcgs,
  marketplaceRefs,
  relatedLanguageSets,
  searchCatalogue,
  setCompletion,
  setLanguage,
  setsOfTcg,
  setStats,
  tcgBySlug,
  topCards,
} from '../../legacy/catalogueReads.js';
import { marketplaceUrls } from '../../legacy/marketplaceUrls.js';
import { daysAgo } from '../../legacy/cardPriceAnalytics.js';
import { sealedHistory, sealedProducts } from '../../legacy/sealed.js';
import {
  CardIdParams,
  CardListResponse,
  CompareQuery,
  CompareResponse,
  EvolutionChain,
  GameCardParams,
  GameCardsParams,
  GameCardsQuery,
  GameSetParams,
  GameSetsParams,
  GameSetsQuery,
  LegacyCardDetail,
  LegacyCardList,
  LegacySet,
  LegacySetList,
  MarketplaceUrls,
  MarketplaceUrlsQuery,
  NewCardsQuery,
  RecentCardsQuery,
  RelatedLanguages,
  SealedDetail,
  SealedList,
  SealedParams,
  SealedQuery,
  SearchQuery,
  SearchResponse,
  SetCardsQuery,
  SetCompletion,
  SetIdParams,
  SetStats,
  Tcg,
  TcgList,
  TcgParams,
  TopCards,
  TopCardsAllQuery,
  TopCardsQuery,
} from '../../../schemas/legacy.js';
import { DomainError, NotFound } from '../../../schemas/errors.js';

const CATALOGUE_TTL = 300;
const PRICED_TTL = 120;
const tags = ['legacy catalogue'];

export const legacyCatalogueRoutes = (deps: AppDeps) => {
  const { db } = deps;
  const requireTcg = async (slug: string) => {
    const tcg = await tcgBySlug(db, slug);
    if (!tcg) throw new NotFound('TCG');
    return tcg;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/tcgs',
      summary: 'Every game (TCG) of the catalogue',
      tags,
      response: TcgList,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [503],
      handler: async () => ({ items: await listTcgs(db) }),
    }),
    defineRoute({
      method: 'get',
      path: '/tcgs/{slug}',
      summary: 'One game',
      tags,
      params: TcgParams,
      response: Tcg,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: ({ params }) => requireTcg(params.slug),
    }),
    defineRoute({
      method: 'get',
      path: '/cards/top',
      summary: 'The dearest cards across every game (or one), by reference price (USD)',
      tags,
      query: TopCardsAllQuery,
      response: CardListResponse,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [503],
      handler: async ({ query }) => {
        const items = await topCards(db, { setId: null, slug: query.tcg_slug ?? null, limit: query.limit });
        return { items, total: items.length };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/sets/{set_id}/stats',
      summary: 'Price statistics of a set (USD reference prices)',
      tags,
      params: SetIdParams,
      response: SetStats,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => (await setStats(db, params.set_id)) ?? Promise.reject(new NotFound('set')),
    }),
    defineRoute({
      method: 'get',
      path: '/api/sets/{set_id}/top-cards',
      summary: 'The dearest cards of a set',
      tags,
      params: SetIdParams,
      query: TopCardsQuery,
      response: TopCards,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        if (!(await setLanguage(db, params.set_id))) throw new NotFound('set');
        const cards = await topCards(db, { setId: params.set_id, slug: null, limit: query.limit });
        return cards.map((c) => ({
          card_id: c.id,
          name: c.name,
          number: c.number,
          rarity: c.rarity,
          image_url: c.local_image_url,
          best_price: c.best_price!,
          currency: 'USD' as const,
          tcg_slug: c.tcg_slug,
        }));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/sets/{set_id}/completion',
      summary: 'What completing a set takes: cards and value by rarity',
      tags,
      params: SetIdParams,
      response: SetCompletion,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => (await setCompletion(db, params.set_id)) ?? Promise.reject(new NotFound('set')),
    }),
    defineRoute({
      method: 'get',
      path: '/api/sets/{set_id}/related-langs',
      summary: 'The same set in other languages',
      tags,
      params: SetIdParams,
      response: RelatedLanguages,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const language = await setLanguage(db, params.set_id);
        if (!language) throw new NotFound('set');
        return { set_id: params.set_id, language, related: await relatedLanguageSets(db, params.set_id) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/recent-cards',
      summary: 'Cards added to the catalogue in the last 7 days',
      tags,
      query: RecentCardsQuery,
      response: CardListResponse,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [503],
      handler: ({ query }) => cardsAddedSince(db, new Date(Date.now() - 7 * 86_400_000), query.tcg_slug ?? null, query.limit),
    }),
    defineRoute({
      method: 'get',
      path: '/api/new-cards',
      summary: 'Cards added since a day (default: 30 days ago)',
      tags,
      query: NewCardsQuery,
      response: CardListResponse,
      maxAge: PRICED_TTL,
      // Without `since` the window starts 30 days before today: today is part of the key.
      cache: { varyBy: ['day'] },
      errors: [503],
      handler: ({ query, vary }) => {
        const since = query.since ?? new Date(Date.parse(`${vary.day}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
        return cardsAddedSince(db, new Date(`${since}T00:00:00Z`), query.tcg_slug ?? null, query.limit);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/compare',
      summary: 'Up to three cards side by side, with their prices',
      tags,
      query: CompareQuery,
      response: CompareResponse,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [503],
      handler: async ({ query }) => {
        const found = await cardDetails(db, query.ids);
        const byId = new Map(found.map((c) => [c.id, c]));
        const items = query.ids.flatMap((id) => (byId.has(id) ? [{ ...byId.get(id)!, currency: 'USD' as const }] : []));
        const priced = items.filter((c) => c.best_price !== null).sort((a, b) => a.best_price! - b.best_price!);
        return {
          items: items.map(({ set_code: _code, ...c }) => c),
          missing: query.ids.filter((id) => !byId.has(id)),
          cheapest_card_id: priced[0]?.id ?? null,
          dearest_card_id: priced.at(-1)?.id ?? null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/marketplace-urls',
      summary: 'Buy-now links: the European and US marketplaces and the auction site',
      tags,
      params: CardIdParams,
      query: MarketplaceUrlsQuery,
      response: MarketplaceUrls,
      maxAge: CATALOGUE_TTL,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const refs = await marketplaceRefs(db, params.card_id);
        if (!refs) throw new NotFound('card');
        return { card_id: params.card_id, variant: query.variant, ...marketplaceUrls(refs, query.variant) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/cards/{card_id}/evolution-chain',
      summary: "A Pokémon card's evolution line (Pokémon cards only: others answer 404)",
      tags,
      params: CardIdParams,
      response: EvolutionChain,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const chain = await evolutionChain(db, params.card_id);
        if (chain === null) throw new NotFound('card');
        if (chain === 'not-pokemon') throw new DomainError('not_found', 'evolution chains exist for Pokémon cards only');
        return { card_id: params.card_id, chain };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/search',
      summary: 'Card search: exact > prefix > all words > similar names; every filter ANDs',
      tags,
      query: SearchQuery,
      response: SearchResponse,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [503],
      handler: ({ query }) => searchCatalogue(db, deps.analytics, query),
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/sets',
      summary: "A game's sets, newest first",
      tags,
      params: GameSetsParams,
      query: GameSetsQuery,
      response: LegacySetList,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        await requireTcg(params.tcg_slug);
        return { ...(await setsOfTcg(db, params.tcg_slug, query.limit, query.offset)), limit: query.limit, offset: query.offset };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/sets/{set_id}',
      summary: 'One set of the game',
      tags,
      params: GameSetParams,
      response: LegacySet,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const { items } = await setsOfTcg(db, params.tcg_slug, 1, 0, params.set_id);
        if (!items[0]) throw new NotFound('set');
        return items[0];
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/sets/{set_id}/cards',
      summary: 'The cards of a set in collector-number order',
      tags,
      params: GameSetParams,
      query: SetCardsQuery,
      response: LegacyCardList,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        const { items: sets } = await setsOfTcg(db, params.tcg_slug, 1, 0, params.set_id);
        if (!sets[0]) throw new NotFound('set');
        const page = await cardsOfTcg(db, params.tcg_slug, { setId: params.set_id, limit: query.limit, offset: query.offset });
        return { ...page, limit: query.limit, offset: query.offset };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/sealed',
      summary: "A game's sealed products (booster boxes, boosters, decks), newest first, with current prices",
      tags,
      params: GameSetsParams,
      query: SealedQuery,
      response: SealedList,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        await requireTcg(params.tcg_slug);
        const page = await sealedProducts(deps.db, deps.analytics, {
          slug: params.tcg_slug,
          setId: query.set_id ?? null,
          limit: query.limit,
          offset: query.offset,
        });
        return { items: page.items.map(({ prices: _p, ...p }) => p), total: page.total, limit: query.limit, offset: query.offset };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/sealed/{product_id}',
      summary: 'A sealed product with its prices per source and a year of daily history',
      tags,
      params: SealedParams,
      response: SealedDetail,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const { items } = await sealedProducts(deps.db, deps.analytics, {
          slug: params.tcg_slug,
          setId: null,
          limit: 1,
          offset: 0,
          productId: params.product_id,
        });
        if (!items[0]) throw new NotFound('sealed product');
        return { ...items[0], price_history: await sealedHistory(deps.analytics, params.product_id, daysAgo(364)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/cards',
      summary: "A game's cards; set_id, rarity and name (case-insensitive substring) filter together",
      tags,
      params: GameCardsParams,
      query: GameCardsQuery,
      response: LegacyCardList,
      maxAge: CATALOGUE_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params, query }) => {
        await requireTcg(params.tcg_slug);
        const page = await cardsOfTcg(db, params.tcg_slug, {
          setId: query.set_id,
          rarity: query.rarity,
          name: query.name,
          limit: query.limit,
          offset: query.offset,
        });
        return { ...page, limit: query.limit, offset: query.offset };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/{tcg_slug}/cards/{card_id}',
      summary: 'One card with its current prices per source and variant',
      tags,
      params: GameCardParams,
      response: LegacyCardDetail,
      maxAge: PRICED_TTL,
      cache: true,
      errors: [404, 503],
      handler: async ({ params }) => {
        const [card] = await cardDetails(db, [params.card_id], params.tcg_slug);
        if (!card) throw new NotFound('card');
        const { set_name: _s, set_code: _c, tcg_slug: _t, best_price: _b, ...detail } = card;
        return detail;
      },
    }),
  ];
};

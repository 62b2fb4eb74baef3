import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import {
  CompatCardList,
  CompatCardOne,
  CompatCardParams,
  CompatCardSelect,
  CompatCardsQuery,
  CompatSetSelect,
  CompatSetsQuery,
  CompatSetList,
  CompatSetOne,
  CompatSetParams,
} from '../../schemas/pokemontcg.js';
import { cardById, listCards, listSets, setById } from '../compat/pokemontcg.js';

const BASE = '/compat/pokemontcg/v2';
const ABOUT =
  "pokemontcg.io v2's shape, ids and search syntax over Holo's catalogue and prices, for clients of that API (announced to go offline on 2027-03-01): point its base URL here. Errors use Holo's {detail} shape.";

/** Answers depend on the URL and the prices epoch alone: cached like the v2 reads. */
// Card answers carry absolute image links built from the request's origin (its Host): the origin is
// part of the key, or one request with a forged Host would hand its links to every later caller.
const cacheKey = (path: string, querystring: string, origin = '') => `compat:${origin}${path}?${querystring}`;
// Koa 3's ctx.origin is null: the origin is the request's own scheme and Host.
const originOf = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

export const compatRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: `${BASE}/cards`,
    summary: 'pokemontcg.io: search cards',
    description: ABOUT,
    tags: ['compat'],
    query: CompatCardsQuery,
    response: CompatCardList,
    maxAge: 300,
    errors: [503],
    handler: ({ query, ctx }) =>
      deps.cache.json(cacheKey(ctx.path, ctx.querystring, originOf(ctx)), 300, () => listCards(deps.db, query, originOf(ctx))),
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/cards/{id}`,
    summary: 'pokemontcg.io: one card by its id ({set}-{number})',
    description: ABOUT,
    tags: ['compat'],
    params: CompatCardParams,
    query: CompatCardSelect,
    response: CompatCardOne,
    maxAge: 300,
    errors: [404, 503],
    handler: ({ params, query, ctx }) =>
      deps.cache.json(cacheKey(ctx.path, ctx.querystring, originOf(ctx)), 300, () =>
        cardById(deps.db, params.id, query.select, originOf(ctx)),
      ),
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/sets`,
    summary: 'pokemontcg.io: search sets',
    description: ABOUT,
    tags: ['compat'],
    query: CompatSetsQuery,
    response: CompatSetList,
    maxAge: 300,
    errors: [503],
    handler: ({ query, ctx }) => deps.cache.json(cacheKey(ctx.path, ctx.querystring), 300, () => listSets(deps.db, query)),
  }),
  defineRoute({
    method: 'get',
    path: `${BASE}/sets/{id}`,
    summary: 'pokemontcg.io: one set by its id',
    description: ABOUT,
    tags: ['compat'],
    params: CompatSetParams,
    query: CompatSetSelect,
    response: CompatSetOne,
    maxAge: 300,
    errors: [404, 503],
    handler: ({ params, query, ctx }) =>
      deps.cache.json(cacheKey(ctx.path, ctx.querystring), 300, () => setById(deps.db, params.id, query.select)),
  }),
];

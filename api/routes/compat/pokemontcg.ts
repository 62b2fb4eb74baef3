import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
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
} from '../../../schemas/pokemontcg.js';
import { cardById, listCards, listSets, setById } from '../../compat/pokemontcg.js';

const BASE = '/compat/pokemontcg/v2';
const ABOUT =
  "pokemontcg.io v2's shape, ids and search syntax over Holo's catalogue and prices, for clients of that API (announced to go offline on 2027-03-01): point its base URL here. Errors use Holo's {detail} shape.";

// Cached like the v2 reads. Card answers carry absolute image links built from the request's
// origin (its Host): they vary by origin, or one request with a forged Host would hand its links
// to every later caller.

export const pokemontcgRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: `${BASE}/cards`,
    summary: 'pokemontcg.io: search cards',
    description: ABOUT,
    tags: ['compat'],
    query: CompatCardsQuery,
    response: CompatCardList,
    maxAge: 300,
    cache: { varyBy: ['origin'] },
    errors: [503],
    handler: ({ query, vary }) => listCards(deps.db, query, vary.origin),
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
    cache: { varyBy: ['origin'] },
    errors: [404, 503],
    handler: ({ params, query, vary }) => cardById(deps.db, params.id, query.select, vary.origin),
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
    cache: true,
    errors: [503],
    handler: ({ query }) => listSets(deps.db, query),
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
    cache: true,
    errors: [404, 503],
    handler: ({ params, query }) => setById(deps.db, params.id, query.select),
  }),
];

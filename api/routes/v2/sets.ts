import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { SetParams, SetQuery, SetResponse } from '../../../schemas/v2.js';
import { cardsOfSet, setHeader } from '../../v2/catalogue.js';
import { NotFound } from '../../../schemas/errors.js';

export const setRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/sets/{set_id}',
    summary: 'A set with its cards in collector-number order',
    description: 'With `updated_after`, only the cards that changed since.',
    tags: ['v2'],
    params: SetParams,
    query: SetQuery,
    response: SetResponse,
    maxAge: 300,
    cache: true,
    errors: [404, 503],
    handler: async ({ params, query }) => {
      const header = await setHeader(deps.db, params.set_id);
      if (!header) throw new NotFound('set');
      const cards = await cardsOfSet(deps.db, header, query);
      return { ...header, page: query.page, size: query.size, cards_total: cards.total, cards: cards.items };
    },
  }),
];

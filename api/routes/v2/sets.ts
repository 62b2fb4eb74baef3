import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { SetParams, SetQuery, SetResponse } from '../../../schemas/v2.js';
import { setWithCards } from '../../v2/catalogue.js';
import { presentSet } from '../../v2/cataloguePresenter.js';

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
    handler: async ({ params, query }) => presentSet(await setWithCards(deps.db, params.set_id, query), query),
  }),
];

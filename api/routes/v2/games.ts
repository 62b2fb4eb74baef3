import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { GameParams, GameQuery, GameResponse, GamesResponse } from '../../../schemas/v2.js';
import { gameWithSets, listGamesWithCards } from '../../v2/catalogue.js';
import { presentGame } from '../../v2/cataloguePresenter.js';

export const gameRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/games',
    summary: 'Games that have cards',
    tags: ['v2'],
    response: GamesResponse,
    maxAge: 300,
    cache: true,
    errors: [503],
    handler: async () => ({ items: await listGamesWithCards(deps.db) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/games/{slug}',
    summary: 'A game with its sets, newest first',
    description:
      'With `updated_after`, only the sets that changed since (their own fields or any of their cards): the first step of an incremental sync.',
    tags: ['v2'],
    params: GameParams,
    query: GameQuery,
    response: GameResponse,
    maxAge: 300,
    errors: [404, 503],
    handler: async ({ params, query }) => presentGame(await gameWithSets(deps.db, params.slug, query), query),
  }),
];

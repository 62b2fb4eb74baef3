import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import {
  CardDetail,
  CardParams,
  ChartPng,
  ChartQuery,
  ChartSvg,
  HistoryQuery,
  HistoryResponse,
  ResolveQuery,
  ResolveResponse,
} from '../../../schemas/v2.js';
import { cardDetailOf, resolvedCards } from '../../v2/catalogue.js';
import { presentResolved } from '../../v2/cataloguePresenter.js';
import { cardHistory, historyPng, historySvg } from '../../v2/history.js';

export const cardRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/v2/cards',
    summary: 'Resolve a card by game, name and optionally collector number and set',
    description:
      'Name matches case-insensitively and exactly. Returns every match, newest set first (at most 50); `ambiguous` is true when more than one card matches, so callers narrow with `number` or `set`. 404 when nothing matches.',
    tags: ['v2'],
    query: ResolveQuery,
    response: ResolveResponse,
    maxAge: 300,
    errors: [404, 503],
    handler: async ({ query }) => presentResolved(await resolvedCards(deps.db, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/cards/{card_id}',
    summary: 'A card with printings, variants and the latest price of every series',
    tags: ['v2'],
    params: CardParams,
    response: CardDetail,
    maxAge: 120,
    cache: { hot: true },
    errors: [404, 503],
    handler: ({ params }) => cardDetailOf(deps, params.card_id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/cards/{card_id}/history',
    summary: "Daily price history of one variant's raw series in a region",
    description:
      "Amounts are in the region's currency: eu EUR, us USD, jp JPY, global USD (every region converted with the euro reference rate of the day). Several points a day, one per series; graded prices are not part of history.",
    tags: ['v2'],
    params: CardParams,
    query: HistoryQuery,
    response: HistoryResponse,
    maxAge: 120,
    cache: true,
    errors: [404, 503],
    handler: ({ params, query }) => cardHistory(deps, params.card_id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/cards/{card_id}/history.svg',
    summary: 'The price history as an SVG chart to embed',
    description:
      'One line per source (its market price type) in the region\'s currency over `days`, with value and date axes, a legend and a title; `width`, `height` and `theme` size and colour it. Same data as the JSON history, cached as long: `<img src=".../history.svg?region=us&days=365">`.',
    tags: ['v2'],
    params: CardParams,
    query: ChartQuery,
    response: ChartSvg,
    produces: 'svg',
    maxAge: 120,
    cache: true,
    errors: [404, 503],
    handler: ({ params, query }) => historySvg(deps, params.card_id, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v2/cards/{card_id}/history.png',
    summary: 'The price history as a PNG chart to embed',
    description: 'The SVG chart rendered to PNG, for places that do not show SVG (chat bots, e-mail).',
    tags: ['v2'],
    params: CardParams,
    query: ChartQuery,
    response: ChartPng,
    produces: 'png',
    maxAge: 120,
    cache: true,
    errors: [404, 503],
    handler: ({ params, query }) => historyPng(deps, params.card_id, query),
  }),
];

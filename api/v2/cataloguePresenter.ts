// Shapes what the v2 catalogue service (catalogue.ts) returns into the v2 routes' responses (schemas/v2.ts).
import type { z } from 'zod';
import type { GameResponse, ResolveResponse, SetResponse } from '../../schemas/v2.js';
import type { gameWithSets, resolvedCards, setWithCards } from './catalogue.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export function presentGame({ game, sets }: Of<typeof gameWithSets>, query: { page: number; size: number }): z.input<typeof GameResponse> {
  const { id: _id, ...fields } = game;
  return { ...fields, page: query.page, size: query.size, sets_total: sets.total, sets_list: sets.items };
}

export const presentSet = (
  { header, cards }: Of<typeof setWithCards>,
  query: { page: number; size: number },
): z.input<typeof SetResponse> => ({
  ...header,
  page: query.page,
  size: query.size,
  cards_total: cards.total,
  cards: cards.items,
});

export const presentResolved = (items: Of<typeof resolvedCards>): z.input<typeof ResolveResponse> => ({
  items,
  total: items.length,
  ambiguous: items.length > 1,
});

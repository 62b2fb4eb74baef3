// Shapes what the v2 stats service (stats.ts) returns into /api/v2/stats's response (schemas/v2.ts).
import type { z } from 'zod';
import type { StatsResponse } from '../../schemas/v2.js';
import type { catalogueStatsOf } from './stats.js';

export const presentCatalogueStats = ({ counts, prices }: Awaited<ReturnType<typeof catalogueStatsOf>>): z.input<typeof StatsResponse> => ({
  ...counts,
  price_points: Number(prices?.price_points ?? 0),
  // Before the first prices land: the epoch, a date every client parses.
  updated_at: prices?.updated_at ?? new Date(0).toISOString(),
});

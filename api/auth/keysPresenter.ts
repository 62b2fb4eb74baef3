// Shapes what the keys service (keys.ts) returns into the developer routes' responses (schemas/auth.ts).
import type { z } from 'zod';
import { TIERS } from '../../schemas/tiers.js';
import type { DeveloperInfo } from '../../schemas/auth.js';
import { publicUser } from './accounts.js';
import type { developerInfoOf } from './keys.js';

/** The account, its tier's limits, its key count and recognition quota. */
export function presentDeveloperInfo({
  user,
  keys,
  recognition,
}: Awaited<ReturnType<typeof developerInfoOf>>): z.input<typeof DeveloperInfo> {
  const tier = TIERS[user.tier];
  return {
    user: publicUser(user),
    tier: user.tier,
    limits: { requests_per_day: tier.perDay, requests_per_minute: tier.perMinute, api_keys: tier.keys },
    keys,
    recognition,
  };
}

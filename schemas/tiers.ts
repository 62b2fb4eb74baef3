// The tiers of the spec's table, and the order access tags compare them in.
export const TIERS = {
  free: { label: 'Free', segment: 'collectors', perDay: 500, perMinute: 30, keys: 1, recognitionPerDay: null, eurPerMonth: 0 },
  starter: { label: 'Starter', segment: 'collectors', perDay: 5_000, perMinute: 60, keys: 3, recognitionPerDay: 25, eurPerMonth: 9 },
  pro: { label: 'Pro', segment: 'collectors', perDay: 25_000, perMinute: 120, keys: 5, recognitionPerDay: 250, eurPerMonth: 29 },
  power_collector: {
    label: 'Power Collector',
    segment: 'collectors',
    perDay: 100_000,
    perMinute: 300,
    keys: 10,
    recognitionPerDay: 1_000,
    eurPerMonth: 59,
  },
  // Legacy: resolvable for accounts already on it, not offered to new sign-ups.
  business: {
    label: 'Business (legacy)',
    segment: 'business',
    perDay: 200_000,
    perMinute: 1_000,
    keys: 10,
    recognitionPerDay: 500,
    eurPerMonth: 79,
  },
  shop_basic: {
    label: 'Shop Basic',
    segment: 'business',
    perDay: 250_000,
    perMinute: 500,
    keys: 10,
    recognitionPerDay: 1_000,
    eurPerMonth: 99,
  },
  shop_pro: {
    label: 'Shop Pro',
    segment: 'business',
    perDay: 500_000,
    perMinute: 1_000,
    keys: 15,
    recognitionPerDay: 2_500,
    eurPerMonth: 249,
  },
  enterprise: {
    label: 'Enterprise',
    segment: 'business',
    perDay: 1_000_000,
    perMinute: 3_000,
    keys: 25,
    recognitionPerDay: 10_000,
    eurPerMonth: 499,
  },
  // The spec leaves Unlimited's request limits open: no daily cap, and a per-minute ceiling far
  // above any real client, there only to stop a runaway loop.
  unlimited: {
    label: 'Unlimited',
    segment: 'business',
    perDay: null,
    perMinute: 1_000_000,
    keys: 50,
    recognitionPerDay: null,
    eurPerMonth: 999,
  },
} as const;

export type Tier = keyof typeof TIERS;
export const TIER_NAMES = Object.keys(TIERS) as Tier[];
export const OFFERED_TIERS = TIER_NAMES.filter((t) => t !== 'business');

/** Rank for access tags: starter+ means this rank or above. Business tiers rank above Pro. */
const RANK: Record<Tier, number> = {
  free: 0,
  starter: 1,
  pro: 2,
  power_collector: 3,
  business: 3,
  shop_basic: 3,
  shop_pro: 4,
  enterprise: 5,
  unlimited: 6,
};
export const atLeast = (tier: Tier, minimum: 'starter' | 'pro') => RANK[tier] >= RANK[minimum];
/** The Business segment (legacy Business, Shop Basic and up): access tag business+, webhooks. */
export const isBusinessTier = (tier: Tier) => TIERS[tier].segment === 'business';
export const BUSINESS_TIERS = TIER_NAMES.filter(isBusinessTier);

/** Whether an account may create a key on `keyTier`: its own tier or one below it, never one that
 *  grants more (a higher rank, the Business segment from a collector account, or a higher limit;
 *  legacy Business only from a Business account). */
export function keyTierWithin(keyTier: Tier, accountTier: Tier): boolean {
  if (keyTier === accountTier) return true;
  const key = TIERS[keyTier];
  const account = TIERS[accountTier];
  return (
    keyTier !== 'business' &&
    RANK[keyTier] <= RANK[accountTier] &&
    (!isBusinessTier(keyTier) || isBusinessTier(accountTier)) &&
    key.perMinute <= account.perMinute &&
    (account.perDay === null || (key.perDay !== null && key.perDay <= account.perDay))
  );
}

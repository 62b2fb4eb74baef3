// Password guessing, slowed as OWASP's Authentication Cheat Sheet has it (README, "Login throttling"):
//   - per name and client address: a few failures (HOLO_LOGIN_FAILURES_PER_ACCOUNT), then 429 for
//     that pair only, so guesses from elsewhere cannot lock the account's owner out;
//   - per name across every address: a ceiling (HOLO_LOGIN_FAILURES_PER_NAME, far higher) that
//     stops guessing spread over many addresses; a browser that has signed in to the account
//     before (a device token, signIn.ts) is not held by it, so an attacker who knows a username
//     cannot lock its owner out from their own browser;
//   - per client address: failures at any names (HOLO_LOGIN_FAILURES_PER_ADDRESS).
// A password change counts per account and per address.
//
// A password check first reserves a slot in every counter, in one atomic Redis round trip, so a
// burst of parallel guesses cannot all pass a look taken before any of them was counted. Past a
// limit the attempt is refused with 429 and Retry-After before any password is looked at, so even
// the right one waits for the window to end. A failed check keeps its slots; a good one clears
// the counter of its own guesses (the name from this address, or the account) and gives the others
// their slot back: it never clears the address's (one's own account must not reset a count of
// guesses at others') nor the name's ceiling (the owner signing in must not hand an attacker a
// fresh budget). Windows are fixed, from the first counted attempt; the counters live in Redis,
// shared by every instance, and expire with it.
//
// The name's counters are keyed by the name in the one spelling the lookup uses (signIn.ts; hashed
// so that Redis holds no e-mail address), not by the account it resolves to: an unknown name counts
// and answers exactly like a known one, and whether a username and an e-mail share a counter
// tells nothing about whether they are one account.
import crypto from 'node:crypto';
import net from 'node:net';
import type { Config } from '../../schemas/config.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { RateLimited } from '../../schemas/errors.js';

export type ThrottleDeps = { stores: { redis: RedisStore }; config: Pick<Config, 'redisPrefix' | 'loginThrottle'> };
/** Who is trying: the client's address as the app sees it (Koa's ctx.ip from a handler). */
export type Client = { ip: string };

/** The counter of a sign-in name, as signIn.ts spells it (hashed: Redis holds no e-mail address). */
export const loginSubject = (name: string) => `n:${crypto.createHash('sha256').update(name).digest('base64url')}`;

/** The counter of a signed-in account's password checks (a password change). */
export const accountSubject = (userId: number) => `a:${userId}`;

/** One count an attempt is held to; on success it is cleared (the guesses it counts were the caller's own) or gets its slot back. */
type Counter = { key: string; limit: number; onSuccess: 'clear' | 'give back' };

const base = (deps: ThrottleDeps) => `${deps.config.redisPrefix}:lt`;
const addressCounter = (deps: ThrottleDeps, client: Client): Counter => ({
  key: `${base(deps)}:ip:${clientNetwork(client.ip)}`,
  limit: deps.config.loginThrottle.failuresPerAddress,
  onSuccess: 'give back',
});

/**
 * A sign-in's password check under the limits: the name from this address, the address, and,
 * unless the caller's browser has signed in to the account the name names (`knownDevice`), the
 * name's ceiling across addresses. See limited() for what `check` answers.
 */
export function throttledSignIn<T>(
  deps: ThrottleDeps,
  client: Client,
  attempt: { subject: string; knownDevice: boolean },
  check: () => Promise<T | null>,
): Promise<T | null> {
  const limits = deps.config.loginThrottle;
  const name = `${base(deps)}:${attempt.subject}`;
  return limited(
    deps,
    [
      { key: `${name}:ip:${clientNetwork(client.ip)}`, limit: limits.failuresPerAccount, onSuccess: 'clear' },
      addressCounter(deps, client),
      ...(attempt.knownDevice ? [] : [{ key: name, limit: limits.failuresPerName, onSuccess: 'give back' as const }]),
    ],
    check,
  );
}

/** A password change's check (the caller is signed in): per account, and per address with sign-ins. */
export function throttledPasswordCheck<T>(
  deps: ThrottleDeps,
  client: Client,
  subject: string,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const counters: Counter[] = [
    { key: `${base(deps)}:${subject}`, limit: deps.config.loginThrottle.failuresPerAccount, onSuccess: 'clear' },
    addressCounter(deps, client),
  ];
  return limited(deps, counters, check);
}

/**
 * Runs a password check under `counters`. `check` answers null for a wrong password (a failed
 * guess: its slots stay counted) or the result of a good one. A check that throws (a store
 * outage) judged no password: every slot is given back. Past a limit: RateLimited (429
 * with Retry-After), and `check` does not run.
 */
async function limited<T>(deps: ThrottleDeps, counters: Counter[], check: () => Promise<T | null>): Promise<T | null> {
  const { redis } = deps.stores;
  const window = deps.config.loginThrottle.windowSeconds;
  const counts = await redis.incrMany(counters.map((c) => ({ key: c.key, ttlSeconds: window })));
  const giveBack = () => Promise.all(counters.map((c) => redis.decrExisting(c.key)));
  const spent = counters.filter((c, i) => counts[i]! > c.limit).map((c) => c.key);
  if (spent.length > 0) {
    // A refused attempt was not a guess: it leaves the counters as they were.
    await giveBack();
    await refuse(redis, spent, 'Too many failed sign-in attempts');
  }
  let result: T | null;
  try {
    result = await check();
  } catch (err) {
    await giveBack().catch(() => undefined);
    throw err;
  }
  if (result !== null) await Promise.all(counters.map((c) => (c.onSuccess === 'clear' ? redis.del(c.key) : redis.decrExisting(c.key))));
  return result;
}

/**
 * Counts a registration from the caller's address, whatever its outcome (a taken name tells
 * whether it exists, so tries at it are limited too); 429 with Retry-After past the limit.
 */
export async function countRegistration(deps: ThrottleDeps, client: Client): Promise<void> {
  const { redis } = deps.stores;
  const limits = deps.config.loginThrottle;
  const key = `${deps.config.redisPrefix}:lt:reg:${clientNetwork(client.ip)}`;
  if ((await redis.incr(key, limits.windowSeconds)) > limits.registrationsPerAddress)
    await refuse(redis, [key], 'Too many registrations from this address');
}

async function refuse(redis: RedisStore, keys: string[], why: string): Promise<never> {
  // The window ends when the last spent counter expires. Redis rounds a TTL to the nearest second:
  // one more, so that a client waiting exactly this long is not refused again.
  const seconds = Math.max(0, ...(await Promise.all(keys.map((k) => redis.ttl(k))))) + 1;
  throw new RateLimited(`${why}. Retry after ${seconds} seconds.`, seconds);
}

/**
 * The network a per-address limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 one as
 * its IPv4), an IPv6 address by its /64, the block one subscriber usually holds whole.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:([\d.]+)$/i.exec(ip);
  if (mapped && net.isIPv4(mapped[1]!)) return mapped[1]!;
  const address = ip.split('%')[0]!;
  if (!net.isIPv6(address)) return ip;
  // Validated above; only the first four groups matter, and an embedded IPv4 is always in the last two.
  const [head = '', tail] = address.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => g.toLowerCase().padStart(4, '0'))
    .join(':')}::/64`;
}

/** The limits as the routes' OpenAPI descriptions state them, from the running configuration. */
export function throttleWording(limits: ThrottleDeps['config']['loginThrottle']) {
  const window = limits.windowSeconds % 60 === 0 ? `${limits.windowSeconds / 60} minutes` : `${limits.windowSeconds} seconds`;
  const past = 'past a limit every attempt, even with the right password, is 429 with Retry-After until the window ends';
  return {
    login: `Failed sign-ins are limited to ${limits.failuresPerAccount} per username or e-mail from one client address, ${limits.failuresPerName} per name from all addresses together (a browser that has signed in to the account before, by its holo_device cookie, is not held to this one), and ${limits.failuresPerAddress} per client address, in ${window}; the same for names that exist and names that do not; ${past}. A successful sign-in clears its name's count from its address. The API's POST /auth/login and the portal's POST /login share the counts.`,
    passwordChange: `Wrong current passwords are limited to ${limits.failuresPerAccount} per account and ${limits.failuresPerAddress} per client address (with failed sign-ins) in ${window}; ${past}.`,
    registration: `Registrations are limited to ${limits.registrationsPerAddress} per client address in ${window}, whatever their outcome (the API's and the portal's together); past it: 429 with Retry-After.`,
  };
}

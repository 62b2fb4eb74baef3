// Redis: REDIS_URL when set, else an in-process stand-in with the same small interface
// (single-process runs only: nothing is shared with another process).
import { Redis } from 'ioredis';
import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';
import { redactUrl } from './postgres.js';

export type MessageHandler = (message: string) => void;

/** The part of Redis Holo uses. Both implementations pass the same tests. */
export type RedisStore = {
  kind: 'external' | 'in-process';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<number>;
  /** Atomic increment; a new key gets ttlSeconds (existing TTLs are kept). */
  incr(key: string, ttlSeconds?: number): Promise<number>;
  /** Several atomic increments in one round trip (rate-limit windows); each new key gets its TTL. */
  incrMany(entries: { key: string; ttlSeconds: number }[]): Promise<number[]>;
  /** Atomic decrement of a key that exists; a missing (or expired) key stays missing and answers 0. */
  decrExisting(key: string): Promise<number>;
  /** Seconds until the key expires (rounded up); -1 for a key without expiry, -2 for no key (Redis' TTL). */
  ttl(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

export async function openRedis(config: Config, log: Logger): Promise<RedisStore> {
  if (config.redisUrl) {
    const store = externalRedis(config.redisUrl);
    await store.ping();
    log.info('redis: external server', { url: redactUrl(config.redisUrl) });
    return store;
  }
  log.info('redis: in-process stand-in (single process only)');
  return inProcessRedis();
}

// Lua keeps "increment, then set the TTL only on a new key" one atomic step.
const INCR_WITH_TTL = `
local v = redis.call('INCR', KEYS[1])
if v == 1 and tonumber(ARGV[1]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return v`;

// A counter given back after its key expired must not come back as a key without expiry.
const DECR_EXISTING = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('DECR', KEYS[1])`;

const INCR_MANY_WITH_TTL = `
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('INCR', key)
  if v == 1 and tonumber(ARGV[i]) > 0 then redis.call('EXPIRE', key, ARGV[i]) end
  out[i] = v
end
return out`;

function externalRedis(url: string): RedisStore {
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  client.on('error', () => undefined); // reported by the failing command instead
  let subscriber: Redis | null = null;
  const handlers = new Map<string, Set<MessageHandler>>();
  return {
    kind: 'external',
    get: (key) => client.get(key),
    set: async (key, value, ttl) => {
      if (ttl && ttl > 0) await client.set(key, value, 'EX', ttl);
      else await client.set(key, value);
    },
    del: (...keys) => (keys.length ? client.del(...keys) : Promise.resolve(0)),
    incr: async (key, ttl = 0) => Number(await client.eval(INCR_WITH_TTL, 1, key, String(ttl))),
    incrMany: async (entries) =>
      (
        (await client.eval(
          INCR_MANY_WITH_TTL,
          entries.length,
          ...entries.map((e) => e.key),
          ...entries.map((e) => String(e.ttlSeconds)),
        )) as number[]
      ).map(Number),
    decrExisting: async (key) => Number(await client.eval(DECR_EXISTING, 1, key)),
    ttl: (key) => client.ttl(key),
    publish: async (channel, message) => {
      await client.publish(channel, message);
    },
    subscribe: async (channel, handler) => {
      if (!subscriber) {
        subscriber = client.duplicate();
        subscriber.on('error', () => undefined);
        subscriber.on('message', (ch: string, msg: string) => handlers.get(ch)?.forEach((h) => h(msg)));
      }
      const set = handlers.get(channel) ?? new Set();
      if (set.size === 0) await subscriber.subscribe(channel);
      set.add(handler);
      handlers.set(channel, set);
      return async () => {
        set.delete(handler);
        if (set.size === 0) await subscriber?.unsubscribe(channel);
      };
    },
    ping: async () => (await client.ping()) === 'PONG',
    close: async () => {
      await subscriber?.quit().catch(() => undefined);
      await client.quit().catch(() => undefined);
    },
  };
}

export function inProcessRedis(now: () => number = Date.now): RedisStore {
  const values = new Map<string, { value: string; expiresAt: number }>();
  const handlers = new Map<string, Set<MessageHandler>>();
  const live = (key: string) => {
    const e = values.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now()) {
      values.delete(key);
      return undefined;
    }
    return e;
  };
  // Expired keys are dropped lazily on read and by this sweep, so memory stays bounded.
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, e] of values) if (e.expiresAt <= t) values.delete(k);
  }, 30_000);
  sweep.unref();
  // Synchronous, so each call is atomic within the one process this stand-in serves.
  const increment = (key: string, ttl = 0) => {
    const e = live(key);
    const next = (e ? Number(e.value) : 0) + 1;
    values.set(key, { value: String(next), expiresAt: e ? e.expiresAt : ttl > 0 ? now() + ttl * 1000 : Infinity });
    return next;
  };
  return {
    kind: 'in-process',
    get: async (key) => live(key)?.value ?? null,
    set: async (key, value, ttl) => {
      values.set(key, { value, expiresAt: ttl && ttl > 0 ? now() + ttl * 1000 : Infinity });
    },
    del: async (...keys) => keys.reduce((n, k) => n + (values.delete(k) ? 1 : 0), 0),
    incr: async (key, ttl = 0) => increment(key, ttl),
    incrMany: async (entries) => entries.map((e) => increment(e.key, e.ttlSeconds)),
    decrExisting: async (key) => {
      const e = live(key);
      if (!e) return 0;
      e.value = String(Number(e.value) - 1);
      return Number(e.value);
    },
    ttl: async (key) => {
      const e = live(key);
      if (!e) return -2;
      return e.expiresAt === Infinity ? -1 : Math.ceil((e.expiresAt - now()) / 1000);
    },
    publish: async (channel, message) => {
      // Delivered asynchronously, as a Redis subscriber would see it.
      const set = handlers.get(channel);
      if (set) queueMicrotask(() => set.forEach((h) => h(message)));
    },
    subscribe: async (channel, handler) => {
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      return async () => {
        set.delete(handler);
      };
    },
    ping: async () => true,
    close: async () => {
      clearInterval(sweep);
      values.clear();
      handlers.clear();
    },
  };
}

// Resolved API keys, cached per process so a keyed request costs no database round trip. Entries
// live 30 s at most; a revocation, an account deletion or a tier change is announced on Redis
// (<prefix>:auth:changed) and every API instance evicts at once, so a revoked key is refused on
// the very next request anywhere.
import type { RedisStore } from '../../sql/stores/redis.js';
import type { KeyOwner } from './accounts.js';

const TTL_MS = 30_000;
const MAX_ENTRIES = 50_000;

export type KeyCache = {
  get(digest: string): KeyOwner | undefined;
  set(digest: string, owner: KeyOwner, expiresAt: string | null): void;
  /** Evicts here and announces to every instance: `key:<id>` or `user:<id>`. */
  changed(what: `key:${number}` | `user:${number}`): Promise<void>;
  /** Called on every instance for each announced change (open streams of a revoked key close). */
  onChange(listener: (kind: 'key' | 'user', id: number) => void): void;
  close(): Promise<void>;
};

export async function createKeyCache(redis: RedisStore, prefix: string): Promise<KeyCache> {
  const entries = new Map<string, { owner: KeyOwner; until: number }>();
  const listeners: ((kind: 'key' | 'user', id: number) => void)[] = [];
  const evict = (what: string) => {
    const [kind, id] = what.split(':');
    if ((kind !== 'key' && kind !== 'user') || !/^\d+$/.test(id ?? '')) return;
    for (const [digest, e] of entries)
      if ((kind === 'key' && e.owner.keyId === Number(id)) || (kind === 'user' && e.owner.user.id === Number(id))) entries.delete(digest);
    for (const listener of listeners) listener(kind, Number(id));
  };
  const channel = `${prefix}:auth:changed`;
  const unsubscribe = await redis.subscribe(channel, evict);
  return {
    get(digest) {
      const e = entries.get(digest);
      if (!e) return undefined;
      if (e.until <= Date.now()) {
        entries.delete(digest);
        return undefined;
      }
      return e.owner;
    },
    set(digest, owner, expiresAt) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(digest, { owner, until: Math.min(Date.now() + TTL_MS, expiresAt ? Date.parse(expiresAt) : Infinity) });
    },
    async changed(what) {
      // Redis delivers the announcement here too (the in-process stand-in as well): evict now
      // anyway, so this instance never waits for its own message.
      evict(what);
      await redis.publish(channel, what).catch(() => undefined);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    close: unsubscribe,
  };
}

// The WebSocket price stream at /api/v1/stream?api_key=… (spec: Events, WebSocket), attached to
// the API's HTTP server. Every API instance subscribes once to the Redis channel ingestion
// publishes on and delivers to its own sockets, so any number of instances share the load.
//
// The key is checked before the handshake completes; a refused connection is still upgraded and
// then closed at once with a close code and a reason a client can read (browsers cannot read the
// status of a failed handshake). Memory per connection is bounded: topics, message size, and the
// bytes queued for a slow reader.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Db } from '../../sql/stores/db.js';
import type { Logger } from '../../sql/runtime/log.js';
import { errorFields } from '../../sql/runtime/log.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { keyRecord, userById, type KeyOwner } from '../auth/accounts.js';
import type { KeyCache } from '../auth/keyCache.js';
import { authorise, keyPrincipal, resolveApiKey, type Principal } from '../auth/principal.js';
import { TIERS } from '../../schemas/tiers.js';
import { priceUpdatesChannel } from '../../sql/stores/priceChannels.js';
import { ClientMessage, PriceUpdatesMessage, STREAM_LIMITS, type ServerMessage } from '../../schemas/stream.js';
import { DomainError } from '../../schemas/errors.js';

export const STREAM_PATH = '/api/v1/stream';

/**
 * The stream is a starter+ resource: the route table's rule (authorise) decides, for the key's own
 * tier, and a refusal becomes close code 4403. Null when the key may stream.
 */
function tierRefusal(principal: Principal & { kind: 'key' }): { code: number; reason: string } | null {
  try {
    authorise(principal, 'starter+');
    return null;
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== 'forbidden') throw err;
    return { code: CLOSE.forbidden, reason: `the stream needs the Starter tier or higher; this key is ${TIERS[principal.tier].label}` };
  }
}

/** Close codes (4000–4999 are the application's own). */
export const CLOSE = {
  goingAway: 1001, // the server is shutting down: reconnect
  tooBig: 1009, // a client message over the size limit
  internal: 1011, // a data store was unreachable while checking the key
  unauthorized: 4401, // no key, an invalid key, or a key revoked while connected
  forbidden: 4403, // the key's tier is below Starter
  tooManyConnections: 4429, // the key's open streams on this instance are at the limit
  heartbeat: 4408, // no message (not even a pong) for two ping intervals
  slowConsumer: 4409, // more than maxBufferedBytes waiting to be sent
} as const;

export type PriceStreamOptions = { pingIntervalMs: number; maxConnectionsPerKey: number };

export type PriceStreamStats = { connections: number; subscriptions: number; delivered: number; dropped_slow: number; reaped: number };

export type PriceStream = {
  attach(server: http.Server): void;
  stats(): PriceStreamStats;
  close(): Promise<void>;
};

type Client = { socket: WebSocket; keyId: number; userId: number; topics: Set<number>; alive: boolean };

/** An index from a key (card, API key) to its clients; a key without clients leaves the map. */
class ClientIndex extends Map<number, Set<Client>> {
  add(key: number, c: Client): void {
    const set = this.get(key);
    if (set) set.add(c);
    else this.set(key, new Set([c]));
  }
  remove(key: number, c: Client): void {
    const set = this.get(key);
    if (set?.delete(c) && set.size === 0) this.delete(key);
  }
}

export async function createPriceStream(
  deps: { db: Db; redis: RedisStore; redisPrefix: string; keyCache: KeyCache; log: Logger },
  options: PriceStreamOptions,
): Promise<PriceStream> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: STREAM_LIMITS.maxMessageBytes, clientTracking: false });
  const clients = new Set<Client>();
  const byCard = new ClientIndex();
  const byKey = new ClientIndex();
  const counters = { delivered: 0, dropped_slow: 0, reaped: 0 };

  /** Queues a message on the socket; false when the connection is gone or was just dropped as too slow. */
  const send = (c: Client, message: ServerMessage | string): boolean => {
    if (c.socket.readyState !== WebSocket.OPEN) return false;
    if (c.socket.bufferedAmount > STREAM_LIMITS.maxBufferedBytes) {
      counters.dropped_slow++;
      drop(c, CLOSE.slowConsumer, `slow consumer: more than ${STREAM_LIMITS.maxBufferedBytes} bytes unread`);
      return false;
    }
    c.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
    return true;
  };

  const forget = (c: Client) => {
    if (!clients.delete(c)) return;
    for (const card of c.topics) byCard.remove(card, c);
    byKey.remove(c.keyId, c);
  };

  // A close frame waits behind queued data, so a connection that does not finish closing in 2 s
  // is cut.
  const drop = (c: Client, code: number, reason: string) => {
    forget(c);
    c.socket.close(code, reason);
    setTimeout(() => c.socket.terminate(), 2_000).unref();
  };

  const onMessage = (c: Client, data: Buffer, isBinary: boolean) => {
    c.alive = true;
    if (isBinary) return send(c, { type: 'error', error: 'messages are JSON text' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      return send(c, { type: 'error', error: 'not JSON: send {"type":"subscribe","topics":["card:<card_id>"]}' });
    }
    const message = ClientMessage.safeParse(parsed);
    if (!message.success) {
      const issue = message.error.issues[0]!;
      return send(c, { type: 'error', error: `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` });
    }
    const m = message.data;
    if (m.type === 'pong') return;
    const cards = m.topics.map((t) => Number(t.slice('card:'.length)));
    if (m.type === 'subscribe') {
      const added = cards.filter((card) => !c.topics.has(card));
      if (c.topics.size + added.length > STREAM_LIMITS.maxTopics) {
        return send(c, { type: 'error', error: `at most ${STREAM_LIMITS.maxTopics} topics per connection; unsubscribe some first` });
      }
      for (const card of added) {
        c.topics.add(card);
        byCard.add(card, c);
      }
    } else {
      for (const card of cards) if (c.topics.delete(card)) byCard.remove(card, c);
    }
    send(c, { type: 'subscribed', topics: [...c.topics].map((card) => `card:${card}`) });
  };

  const accept = (socket: WebSocket, owner: KeyOwner) => {
    const c: Client = { socket, keyId: owner.keyId, userId: owner.user.id, topics: new Set(), alive: true };
    clients.add(c);
    byKey.add(c.keyId, c);
    socket.on('message', (data: Buffer, isBinary) => onMessage(c, data, isBinary));
    socket.on('close', () => forget(c));
    socket.on('error', () => forget(c));
  };

  /** The key's owner when it may stream; otherwise the close code and reason to refuse with. */
  const refusal = async (key: string | null): Promise<{ code: number; reason: string } | { owner: KeyOwner }> => {
    if (!key) return { code: CLOSE.unauthorized, reason: `missing api_key: connect to ${STREAM_PATH}?api_key=<API_KEY>` };
    let owner: KeyOwner | null;
    try {
      owner = await resolveApiKey(deps, key);
    } catch (err) {
      deps.log.warn('stream: key check failed', errorFields(err));
      return { code: CLOSE.internal, reason: 'holo_data_unavailable' };
    }
    if (!owner) return { code: CLOSE.unauthorized, reason: 'invalid or revoked API key' };
    const belowStarter = tierRefusal(keyPrincipal(owner));
    if (belowStarter) return belowStarter;
    if ((byKey.get(owner.keyId)?.size ?? 0) >= options.maxConnectionsPerKey) {
      return { code: CLOSE.tooManyConnections, reason: `at most ${options.maxConnectionsPerKey} open streams per key` };
    }
    return { owner };
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://stream');
    if (url.pathname !== STREAM_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.on('error', () => socket.destroy());
    void refusal(url.searchParams.get('api_key')).then((verdict) => {
      if (socket.destroyed) return;
      wss.handleUpgrade(req, socket, head, (ws) => {
        if ('owner' in verdict) accept(ws, verdict.owner);
        else ws.close(verdict.code, verdict.reason);
      });
    });
  };

  // Updates arrive 500 cards a message; each subscribed card becomes one price_update, serialised
  // once for all of its subscribers.
  const unsubscribe = await deps.redis.subscribe(priceUpdatesChannel(deps.redisPrefix), (raw) => {
    let message;
    try {
      message = PriceUpdatesMessage.safeParse(JSON.parse(raw));
    } catch {
      return;
    }
    if (!message.success) return;
    for (const update of message.data.data) {
      const subscribers = byCard.get(update.card_id);
      if (!subscribers) continue;
      const payload = JSON.stringify({
        type: 'price_update',
        data: { card_id: update.card_id, market_price: update.market_price, currency: update.currency },
      });
      for (const c of [...subscribers]) if (send(c, payload)) counters.delivered++;
    }
  });

  // A key changed on any instance: revoked, suspended or moved below Starter ends its open streams
  // here; a change of limits keeps them. A deleted account ends all of its streams.
  const recheck = async (keyId: number) => {
    const open = [...(byKey.get(keyId) ?? [])];
    if (open.length === 0) return;
    let key: Awaited<ReturnType<typeof keyRecord>>;
    let user: Awaited<ReturnType<typeof userById>>;
    try {
      [key, user] = await Promise.all([keyRecord(deps.db, keyId), userById(deps.db, open[0]!.userId)]);
    } catch (err) {
      deps.log.warn('stream: key recheck failed', errorFields(err));
      return;
    }
    const refused =
      !key?.is_active || !user
        ? { code: CLOSE.unauthorized, reason: 'API key revoked or suspended' }
        : tierRefusal(
            keyPrincipal({ user, keyId, tier: key.tier, limits: { perDay: key.daily_limit, perMinute: key.rate_limit_per_minute } }),
          );
    if (refused) for (const c of open) drop(c, refused.code, refused.reason);
  };
  deps.keyCache.onChange((kind, id) => {
    if (kind === 'key') {
      if (byKey.get(id)?.size) void recheck(id);
      return;
    }
    for (const c of [...clients]) if (c.userId === id) drop(c, CLOSE.unauthorized, 'account deleted');
  });

  const heartbeat = setInterval(() => {
    for (const c of [...clients]) {
      if (!c.alive) {
        counters.reaped++;
        drop(c, CLOSE.heartbeat, 'no pong: connection considered dead');
        continue;
      }
      c.alive = false;
      send(c, { type: 'ping' });
    }
  }, options.pingIntervalMs);
  heartbeat.unref();

  const servers: http.Server[] = [];
  return {
    attach(server) {
      server.on('upgrade', onUpgrade);
      servers.push(server);
    },
    stats: () => ({ connections: clients.size, subscriptions: [...byCard.values()].reduce((n, s) => n + s.size, 0), ...counters }),
    async close() {
      clearInterval(heartbeat);
      for (const server of servers) server.off('upgrade', onUpgrade);
      for (const c of [...clients]) drop(c, CLOSE.goingAway, 'server shutting down');
      await unsubscribe();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

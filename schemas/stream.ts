// The WebSocket price stream's messages (spec: Events, WebSocket). Client messages are validated
// here; server messages are built from these types.
import { z } from './common.js';

export const STREAM_LIMITS = {
  /** Topics one connection may hold. */
  maxTopics: 500,
  /** Largest client message, bytes; a larger one closes the connection with 1009. */
  maxMessageBytes: 16 * 1024,
  /** Unsent bytes a connection may queue before it is dropped as a slow consumer. */
  maxBufferedBytes: 1024 * 1024,
} as const;

export const CardTopic = z.string().regex(/^card:[1-9]\d{0,9}$/, "topics look like 'card:<card_id>'");
const Topics = z.array(CardTopic).min(1).max(STREAM_LIMITS.maxTopics);

export const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topics: Topics }),
  z.object({ type: z.literal('unsubscribe'), topics: Topics }),
  z.object({ type: z.literal('pong') }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export type PriceUpdate = { card_id: number; market_price: number; currency: string };

export type ServerMessage =
  | { type: 'ping' }
  | { type: 'subscribed'; topics: string[] }
  | { type: 'price_update'; data: PriceUpdate }
  | { type: 'error'; error: string };

/** What ingestion publishes on <prefix>:prices:updates. */
export const PriceUpdatesMessage = z.object({
  type: z.literal('price_updates'),
  data: z.array(z.object({ card_id: z.number().int().positive(), market_price: z.number(), currency: z.string() })),
});

// The WebSocket stream's HTTP face: the upgrade itself is handled by api/stream/priceStream.ts
// on the server's 'upgrade' event; this route documents the protocol and answers a plain GET.
import { defineRoute } from '../http/route.js';
import { z } from '../../schemas/common.js';
import { DomainError } from '../../schemas/errors.js';

/** GET /api/v1/stream without an upgrade: 426, and the protocol described in OpenAPI. */
export const streamRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/api/v1/stream',
    summary: 'WebSocket price stream (connect with a WebSocket client)',
    description:
      "Connect with `?api_key=<API_KEY>` (Starter tier or higher). Send `{type:'subscribe', topics:['card:<card_id>', …]}` or `unsubscribe`; the server answers `{type:'subscribed', topics}`, sends `{type:'ping'}` every 30 s (answer `{type:'pong'}`; two silent intervals close the connection with 4408) and `{type:'price_update', data:{card_id, market_price, currency}}` for subscribed cards within seconds of an ingestion run. Malformed messages get `{type:'error', error}`. Limits: 500 topics and 16 KiB per message (1009), 1 MiB unread (4409 slow consumer), 20 open streams per key per instance (4429). Refusals close at once: 4401 missing, invalid or revoked key; 4403 tier below Starter; 1011 holo_data_unavailable. A plain GET answers 426.",
    tags: ['streaming'],
    response: z.object({ detail: z.string() }),
    status: 200,
    errors: [426],
    // ctx: a 426 names the protocol to switch to in its Upgrade header.
    handler: async ({ ctx }) => {
      ctx.set('Upgrade', 'websocket');
      throw new DomainError('upgrade_required', 'Upgrade Required: connect with a WebSocket client to /api/v1/stream?api_key=<API_KEY>');
    },
  }),
];

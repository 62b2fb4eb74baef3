// The access each route must have, owned by the tests rather than read from the routes: a route
// tagged otherwise fails access.test.ts, so a mis-tagged route cannot pass the access matrix by its
// own mistake. Keys are "METHOD path" as the route table declares them. Where the spec
// (shared/spec/interface-spec.md, Endpoints) names a route's access, the row follows it; the rest
// follow the README and the spec's wording for that kind of route, group by group below.
import type { Access } from '../../api/auth/principal.js';
import type { Tier } from '../../schemas/tiers.js';

export const ROUTE_ACCESS: Record<string, Access> = {
  // Spec, v2 data endpoints: GET only, free, no authentication. Holo's own v2 additions (history charts,
  // change feeds) and the pokemontcg.io compatibility surface are free like them.
  'GET /api/v2/stats': 'free',
  'GET /api/v2/games': 'free',
  'GET /api/v2/games/{slug}': 'free',
  'GET /api/v2/sets/{set_id}': 'free',
  'GET /api/v2/cards': 'free',
  'GET /api/v2/cards/{card_id}': 'free',
  'GET /api/v2/cards/{card_id}/history': 'free',
  'GET /api/v2/cards/{card_id}/history.svg': 'free',
  'GET /api/v2/cards/{card_id}/history.png': 'free',
  'GET /api/v2/price-changes': 'free',
  'GET /api/v2/id-changes': 'free',
  'GET /compat/pokemontcg/v2/cards': 'free',
  'GET /compat/pokemontcg/v2/cards/{id}': 'free',
  'GET /compat/pokemontcg/v2/sets': 'free',
  'GET /compat/pokemontcg/v2/sets/{id}': 'free',
  // Spec, Legacy catalogue: all free.
  'GET /tcgs': 'free',
  'GET /tcgs/{slug}': 'free',
  'GET /cards/top': 'free',
  'GET /api/sets/{set_id}/stats': 'free',
  'GET /api/sets/{set_id}/top-cards': 'free',
  'GET /api/sets/{set_id}/completion': 'free',
  'GET /api/sets/{set_id}/related-langs': 'free',
  'GET /api/recent-cards': 'free',
  'GET /api/new-cards': 'free',
  'GET /api/compare': 'free',
  'GET /api/cards/{card_id}/marketplace-urls': 'free',
  'GET /api/cards/{card_id}/evolution-chain': 'free',
  'GET /api/search': 'free',
  'GET /{tcg_slug}/sets': 'free',
  'GET /{tcg_slug}/sets/{set_id}': 'free',
  'GET /{tcg_slug}/sets/{set_id}/cards': 'free',
  'GET /{tcg_slug}/sealed': 'free',
  'GET /{tcg_slug}/sealed/{product_id}': 'free',
  'GET /{tcg_slug}/cards': 'free',
  'GET /{tcg_slug}/cards/{card_id}': 'free',
  // Spec, Legacy prices and history: free.
  'GET /api/cards/{card_id}/prices': 'free',
  'GET /api/cards/{card_id}/price-history': 'free',
  'GET /api/cards/{card_id}/price-history-multi': 'free',
  'GET /api/cards/{card_id}/price-history-snapshots': 'free',
  'GET /api/cards/{card_id}/ebay-sold': 'free',
  'GET /api/cards/{card_id}/price-aggregates': 'free',
  'GET /api/cards/{card_id}/recent-sales': 'free',
  'GET /api/cards/{card_id}/stash-score': 'free',
  'GET /api/cards/{card_id}/predict': 'free',
  // Spec, Market intelligence, price intelligence: free (the other market paths it names too); the
  // detailed stats beside them.
  'GET /api/market/active-sellers': 'free',
  'GET /api/market/movers': 'free',
  'GET /api/market-movers': 'free',
  'GET /api/market/overview': 'free',
  'GET /api/market/stats': 'free',
  'GET /api/market/radar-stats': 'free',
  'GET /api/market/best-deals': 'free',
  'GET /api/market/trending-predictions': 'free',
  'GET /api/market/rising': 'free',
  'GET /api/market/older-movers': 'free',
  'GET /api/market/spread': 'free',
  'GET /api/market/recent': 'free',
  'GET /api/price-intelligence/card/{id}': 'free',
  'GET /api/price-intelligence/card/{id}/prices': 'free',
  'GET /api/price-intelligence/card/{id}/series': 'free',
  'GET /api/price-intelligence/card/{id}/summary': 'free',
  'GET /api/price-intelligence/set/{set_id}/prices': 'free',
  'GET /api/price-intelligence/sources': 'free',
  'GET /api/price-intelligence/fx/rate': 'free',
  'GET /api/price-intelligence/history': 'free',
  'GET /api/price-intelligence/compare': 'free',
  'GET /api/price-intelligence/search': 'free',
  'GET /api/price-intelligence/stats': 'free',
  'GET /api/stats/detailed': 'free',
  // Spec, Named paths: "admin only" (app version, key changes, correlation, FX update, the status
  // stream); Holo's operator pages beside them (ingestion, the e-mail outbox).
  'POST /api/admin/ingest/runs': 'admin',
  'GET /api/admin/ingest/runs': 'admin',
  'GET /api/admin/ingest/runs/{workflow_id}': 'admin',
  'GET /api/admin/ingest/sources': 'admin',
  'GET /api/admin/ingest/schedules': 'admin',
  'POST /api/admin/ingest/schedules/pause': 'admin',
  'POST /api/admin/ingest/schedules/resume': 'admin',
  'GET /api/admin/ingest/rejects': 'admin',
  'GET /api/admin/ingest/cross-source-flags': 'admin',
  'POST /api/price-intelligence/correlate': 'admin',
  'POST /api/price-intelligence/correlate/{card_id}': 'admin',
  'POST /api/price-intelligence/fx/update': 'admin',
  'GET /api/admin/outbox': 'admin',
  'PATCH /admin/api-keys/{key_id}': 'admin',
  'POST /api/admin/app/version': 'admin',
  'GET /admin/status/stream': 'admin',
  // Spec, Accounts and session: registering and logging in need no account; the rest act on the
  // caller's own account.
  'POST /auth/register': 'free',
  'POST /auth/register-seller': 'free',
  'POST /auth/login': 'free',
  'POST /auth/logout': 'auth',
  'GET /auth/me': 'auth',
  'POST /auth/change-password': 'auth',
  'POST /auth/account/delete-request': 'auth',
  'POST /auth/account/delete-cancel': 'auth',
  'DELETE /auth/account': 'auth',
  // Spec, key management (/api/keys/, /api/developer/*): the caller's own keys.
  'GET /api/keys/': 'auth',
  'POST /api/keys/': 'auth',
  'GET /api/keys/by-name': 'auth',
  'DELETE /api/keys/{key_id}': 'auth',
  'GET /api/developer/key': 'auth',
  'GET /api/developer/info': 'auth',
  // Spec, recognition: session users are admitted, API keys need Starter or higher (starter+). A
  // scan session is made from the desktop (starter+); the phone's side holds only the claim token.
  'POST /api/cards/recognize': 'starter+',
  'POST /api/cards/recognize/confirm': 'starter+',
  'POST /api/cards/detect-edges': 'starter+',
  'POST /api/scan-sessions': 'starter+',
  'GET /api/scan-sessions/{id}': 'starter+',
  'GET /api/scan-sessions/{id}/qr.png': 'starter+',
  'POST /api/scan-sessions/{id}/claim': 'free',
  'POST /api/scan-sessions/{id}/upload-photo': 'free',
  'POST /api/scan-sessions/{id}/results': 'free',
  'POST /api/scan-sessions/{id}/complete': 'free',
  'GET /api/scan-sessions/{id}/sse': 'starter+',
  'GET /scan/{id}': 'free',
  // Spec, Events: webhooks are for Business and up.
  'GET /api/webhooks': 'business+',
  'POST /api/webhooks': 'business+',
  'GET /api/webhooks/{webhook_id}': 'business+',
  'PATCH /api/webhooks/{webhook_id}': 'business+',
  'POST /api/webhooks/{webhook_id}/rotate-secret': 'business+',
  'DELETE /api/webhooks/{webhook_id}': 'business+',
  'GET /api/webhooks/{webhook_id}/deliveries': 'business+',
  // Spec, Authentication 12: the price stream authenticates with its api_key parameter (Starter and
  // up), checked by the stream itself (its own test above), so the route is free. Health, the
  // status page, the app manifest and the push key are public.
  'GET /api/health': 'free',
  'GET /api/v1/stream': 'free',
  'GET /api/devices/vapid-key': 'free',
  'GET /api/app/latest': 'free',
  'GET /api/status/checks': 'free',
  'GET /api/status/incidents': 'free',
  // Holo's ClickHouse interface (README): Pro and up, or an administrator; ping is public.
  'GET /clickhouse': 'pro+|admin',
  'POST /clickhouse': 'pro+|admin',
  'GET /clickhouse/ping': 'free',
  // Bulk data: the listing needs an account (its links follow the tier, tested above); a download
  // link's signed token is its own authorisation (spec: download by token).
  'GET /api/v2/bulk': 'auth',
  'GET /dl/{token}/{filename}': 'free',
  // Spec, Marketplace: selling, bidding, buying and transactions are the caller's own (auth);
  // browsing, fee preview, verification, reputation and the renewal link (its token) are public.
  'POST /seller/become': 'auth',
  'GET /seller/profile': 'auth',
  'PUT /seller/profile/extended': 'auth',
  'POST /seller/marketplace-link': 'auth',
  'POST /seller/stock/import': 'auth',
  'POST /seller/listings': 'auth',
  'GET /seller/listings': 'auth',
  'PATCH /seller/listings/{listing_id}': 'auth',
  'DELETE /seller/listings/{listing_id}': 'auth',
  'POST /api/listings/{listing_id}/renew': 'auth',
  'GET /api/listings': 'free',
  'GET /api/listings/fee-preview': 'free',
  'GET /api/listings/{listing_id}': 'free',
  'GET /api/verify/{code}': 'free',
  'GET /listing-renewal/{token}': 'free',
  'GET /verify': 'free',
  'GET /verify/{code}': 'free',
  'GET /help/verify-photo': 'free',
  'POST /api/upload/listing-image': 'auth',
  'POST /api/listings/{listing_id}/buy-now': 'auth',
  'POST /seller/listings/{listing_id}/bid': 'auth',
  'GET /seller/listings/{listing_id}/bids': 'free',
  'POST /seller/listings/{listing_id}/bids/{bid_id}/accept': 'auth',
  'GET /api/transactions/{transaction_id}': 'auth',
  'GET /api/transactions/{transaction_id}/checkout': 'auth',
  'POST /api/transactions/{transaction_id}/status': 'auth',
  'POST /api/transactions/{transaction_id}/tracking': 'auth',
  'POST /api/transactions/{transaction_id}/rating': 'auth',
  'GET /api/reputation/{username}': 'free',
  'GET /api/users/{username}/reputation': 'free',
  // Payments: Stripe's webhook is authorised by its signature.
  'POST /api/payments/stripe/webhook': 'signed',
  // Spec, the pathless operations and named paths of an account's own data (collection, wishlist,
  // alerts, privacy, avatar, decks, messages, moderation, notifications, devices): auth. Public
  // profiles and public decks are free.
  'GET /alerts': 'auth',
  'POST /alerts': 'auth',
  'DELETE /alerts/{alert_id}': 'auth',
  'POST /alerts/digest-now': 'auth',
  'POST /collection/add': 'auth',
  'GET /collection': 'auth',
  'GET /collection/summary': 'auth',
  'GET /collection/analytics': 'auth',
  'GET /collection/export': 'auth',
  'POST /collection/import': 'auth',
  'PATCH /collection/{entry_id}': 'auth',
  'DELETE /collection/{entry_id}': 'auth',
  'POST /wishlist/add': 'auth',
  'GET /wishlist': 'auth',
  'DELETE /wishlist/{item_id}': 'auth',
  'POST /me/privacy': 'auth',
  'POST /me/avatar': 'auth',
  'GET /users/{username}': 'free',
  'POST /decks': 'auth',
  'GET /decks': 'auth',
  'GET /decks/public': 'free',
  'POST /decks/import': 'auth',
  'GET /decks/{deck_id}': 'free',
  'DELETE /decks/{deck_id}': 'auth',
  'POST /decks/{deck_id}/cards': 'auth',
  'DELETE /decks/{deck_id}/cards/{card_id}': 'auth',
  'GET /api/messages': 'auth',
  'GET /api/messages/threads': 'auth',
  'POST /api/messages': 'auth',
  'GET /api/messages/{message_id}': 'auth',
  'POST /api/reports': 'auth',
  'GET /api/blocks': 'auth',
  'POST /api/blocks/{user_id}': 'auth',
  'DELETE /api/blocks/{user_id}': 'auth',
  'GET /me/notifications': 'auth',
  'POST /me/notifications': 'auth',
  'GET /api/notifications/feed': 'auth',
  'GET /api/notifications/unread-count': 'auth',
  'POST /api/notifications/{notification_id}/read': 'auth',
  'POST /api/notifications/read-all': 'auth',
  'GET /api/notifications/{notification_id}/read': 'auth',
  'GET /api/notifications/read-all': 'auth',
  'POST /api/devices/register': 'auth',
  'DELETE /api/devices/register': 'auth',
};

// Which tiers each tag admits, written out here rather than derived from the code under test: a
// tier added to schemas/tiers.ts fails this file until someone decides where it belongs.
export const STARTER_AND_UP: Tier[] = [
  'starter',
  'pro',
  'power_collector',
  'business',
  'shop_basic',
  'shop_pro',
  'enterprise',
  'unlimited',
];
export const PRO_AND_UP: Tier[] = ['pro', 'power_collector', 'business', 'shop_basic', 'shop_pro', 'enterprise', 'unlimited'];
export const BUSINESS: Tier[] = ['business', 'shop_basic', 'shop_pro', 'enterprise', 'unlimited'];

/** Who calls, as far as access goes: nobody, the operator token, or an account's session or key at a tier. */
export type CallerAccess = { kind: 'anonymous' } | { kind: 'operator' } | { kind: 'session' | 'key'; tier: Tier; admin: boolean };

export type Caller = CallerAccess & { name: string; headers: Record<string, string> };

/**
 * What the spec lets a caller do with a route tagged `access` (Endpoints, access tags, and
 * Authentication): starter+ admits any session ("or session cookie"); every other tiered tag admits
 * a session only at its account's tier, like a key at its key's tier; pro+|admin also admits an
 * administrator; the operator token passes every tag (a route that needs an account then refuses
 * it for that reason alone, see NO_ACCOUNT).
 */
export function expected(access: Access, c: CallerAccess): 'allowed' | 401 | 403 {
  if (access === 'free' || access === 'signed') return 'allowed';
  if (c.kind === 'anonymous') return 401;
  if (c.kind === 'operator') return 'allowed';
  const ok =
    access === 'auth'
      ? true
      : access === 'admin'
        ? c.admin
        : access === 'starter+'
          ? c.kind === 'session' || STARTER_AND_UP.includes(c.tier)
          : access === 'pro+'
            ? PRO_AND_UP.includes(c.tier)
            : access === 'pro+|admin'
              ? c.admin || PRO_AND_UP.includes(c.tier)
              : BUSINESS.includes(c.tier); // business+
  return ok ? 'allowed' : 403;
}

/**
 * Routes that can end the credential they are called with (the session signs out; a key revokes
 * itself): a fuzzer calls them last, so every other answer is the credential's.
 */
export const ENDS_THE_CREDENTIAL: ReadonlySet<string> = new Set(['POST /auth/logout', 'DELETE /api/keys/{key_id}']);

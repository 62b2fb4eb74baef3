// The API change log (spec, Versioning 6): dated, typed entries, newest first. Deprecations come
// from the one list that also drives the Deprecation/Sunset headers.
import { DEPRECATIONS } from '../http/deprecations.js';

export const CHANGE_TYPES = ['feature', 'fix', 'perf', 'break', 'deprecation'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangelogEntry = { date: string; type: ChangeType; title: string; details: string[] };

const RELEASES: ChangelogEntry[] = [
  {
    date: '2026-01-15',
    type: 'feature',
    title: 'v1.0',
    details: ['Card catalogue, prices and price history (the legacy v1 surface)', 'Accounts, API keys and the developer portal'],
  },
  {
    date: '2026-03-10',
    type: 'feature',
    title: 'Twelve-game coverage',
    details: ['The catalogue and price feeds cover twelve trading-card games'],
  },
  { date: '2026-04-01', type: 'feature', title: 'Marketplace launch', details: ['Seller listings, offers and transactions'] },
  {
    date: '2026-05-07',
    type: 'feature',
    title: 'v1.14',
    details: [
      'Card verification',
      'Cross-device scan sessions',
      'Buy-now',
      'Listing renewal',
      'Fee preview',
      'Privacy toggle',
      'Reputation alias',
      'Recognition rotation fallback',
    ],
  },
  {
    date: '2026-06-04',
    type: 'feature',
    title: 'Data API v2',
    details: ['/api/v2: read-only, additive, no credentials, plain JSON; v1 endpoints are unchanged'],
  },
  {
    date: '2026-11-22',
    type: 'perf',
    title: 'Market movers from the daily market table',
    details: ['/api/market/movers reads a per-day aggregate instead of raw price points: p99 under 200 ms over 84 million points'],
  },
  {
    date: '2026-11-22',
    type: 'fix',
    title: 'pokemontcg.io ids with suffixes are priced',
    details: ['Cards such as cel25c-15_A1 were refused by the feed mapping and had no prices'],
  },
  {
    date: '2026-11-23',
    type: 'feature',
    title: 'Collector features',
    details: [
      'Collections with values from the latest prices, a summary, CSV export and import, and GET /collection/analytics (daily value over 30, 90 or 365 days, gainers and losers, value by set and condition)',
      'Wishlist with price thresholds, decks (with import from text), public profiles, privacy and avatars',
      'Alert e-mail is opt-in: GET and POST /me/notifications; a duplicate alert is refused with 409',
    ],
  },
  {
    date: '2026-11-23',
    type: 'feature',
    title: 'Push notifications for real',
    details: [
      'Web Push (VAPID key at GET /api/devices/vapid-key; register a subscription with its keys), APNs and FCM',
      'Alerts, wishlist thresholds, bids, messages and transaction moves reach every registered device; a device its push service calls gone is disabled until registered again',
    ],
  },
  {
    date: '2026-11-24',
    type: 'feature',
    title: 'Card recognition and scan sessions',
    details: [
      'POST /api/cards/recognize: ranked candidates with a calibrated confidence, the rotation fallback (candidates[0].rotation_used) and capture_quality with every measured signal; /recognize/confirm (with add_to_collection) and /detect-edges',
      'Recognitions a day by tier, shown on /api/developer/info',
      'Scan sessions under /api/scan-sessions: QR code, one-time claim without login, photo upload, results, completion and server-sent events resumable with Last-Event-ID',
    ],
  },
  { date: '2026-11-24', type: 'fix', title: 'Login', details: ['A control character in the login name is a 422, not a 500'] },
  {
    date: '2026-11-24',
    type: 'feature',
    title: 'For data teams: ClickHouse access, bulk export, incremental sync',
    details: [
      "ClickHouse's HTTP interface at /clickhouse (embedded deployments): ClickHouse clients connect with a Pro key and read the documented tables, read-only, under fixed limits; a ClickHouse server gets a read-only user",
      'GET /api/v2/bulk and /dl/{token}/{filename}: the catalogue per game, the latest prices and the price history per game and month as gzip NDJSON, gzip CSV and Parquet, with checksums, signed links, ranges and ETags',
      'updated_after on /api/v2/games/{slug} and /api/v2/sets/{set_id}; GET /api/v2/price-changes and /api/v2/id-changes: cursor feeds of what changed',
    ],
  },
  {
    date: '2026-11-24',
    type: 'feature',
    title: 'pokemontcg.io compatibility and embeddable charts',
    details: [
      "/compat/pokemontcg/v2/cards and /sets (and one of each by id) in pokemontcg.io's shapes, ids and q syntax, with Holo's prices in its tcgplayer and cardmarket blocks",
      'GET /api/v2/cards/{card_id}/history.svg and .png: the price history as a chart to embed',
    ],
  },
  {
    date: '2026-11-26',
    type: 'break',
    title: 'One format for every signed token; sign in again once',
    details: [
      'The tcg_session cookie, listing renewal links, bulk download links, scan-session claim tokens and portal CSRF tokens are all HS256 JWTs with a purpose, an expiry and a key id, so the signing key can be rotated without signing anyone out',
      'Sessions, download links, claim tokens and form tokens issued before this release no longer verify: sign in again, list /api/v2/bulk again for fresh links, reload portal pages. Renewal links e-mailed before it stop working too: renew those listings with POST /api/listings/{id}/renew',
    ],
  },
];

export function changelog(): ChangelogEntry[] {
  const deprecations: ChangelogEntry[] = DEPRECATIONS.map((d) => ({
    date: d.announced,
    type: 'deprecation',
    title: `${d.method.toUpperCase()} ${d.path} is deprecated`,
    details: [`Use ${d.successor}. It answers with Deprecation: true and Sunset until ${d.sunset}, then it is removed.`],
  }));
  // Newest first; on one day, in declaration order.
  return [...RELEASES, ...deprecations]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.date.localeCompare(a.e.date) || a.i - b.i)
    .map(({ e }) => e);
}

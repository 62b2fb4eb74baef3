// Which test files the server pass runs (PostgreSQL and Redis servers from Debian's packages
// instead of embedded PostgreSQL and the in-process Redis), and why; every other file says why the
// embedded pass alone tells all it can. Every test file is in exactly one list (the suite refuses
// to start otherwise, test/support/suite.ts), so a new file is placed by someone deciding, and a
// file cannot drop out of the server pass unnoticed.
//
// What differs on the servers: Redis is another process (connections shared by instances, lost and
// regained, pub/sub over a subscriber connection) where the stand-in is one process's memory, and
// PostgreSQL is Debian's release (15) where embedded is 18, a server each file gets a fresh
// database on. What does not: the handlers, the API's shapes, ClickHouse (chDB in both).
// The stand-in's own contract (stores.test) runs against both, so code using the RedisStore
// interface alone behaves the same on either.

/** Files the server pass runs, with what the servers can change for them. */
export const SERVER_PASS: Readonly<Record<string, string>> = {
  'stores.test': "the RedisStore contract against the stand-in and the server; every migration on the server's PostgreSQL",
  'typed-queries.test': "every PostgreSQL query file prepared by the server's release (syntax, functions, types)",
  'store-outages.test': 'PostgreSQL and Redis servers lost and regained (the stand-in cannot be lost)',
  'stream-fanout.test': 'several API instances on one Redis: pub/sub across connections',
  'stream.test': 'price updates over a Redis subscriber connection to WebSocket clients',
  'scan-sessions.test': "a scan session's events over Redis pub/sub to server-sent events",
  'login-throttling.test': 'counters shared by two API instances on one Redis, reserved atomically',
  'rate-limits.test': 'per-minute and daily counters with their expiry in a Redis server',
  'incremental-sync.test': "PostgreSQL transaction ids (xid8) and commit order on the server's release",
  'marketplace-sales.test': "races with exactly one winner, on the server's row locks and isolation",
  'marketplace-payments.test': 'payment state changes in transactions on the server',
  'money.test': "amounts through the server's numeric columns, from the request to Stripe and back",
  'hot-responses.test': 'the prices epoch and the responses cache through the Redis server',
  'ingestion-supervision.test': 'ingestion beside the API on external stores',
  'card-analytics.test':
    "precomputed answers in the server's json columns, its advisory lock and one-statement generation reads, and the prices epoch through the Redis server",
};

/** Files the embedded pass alone runs, with why the servers would tell nothing more. */
export const EMBEDDED_ONLY: Readonly<Record<string, string>> = {
  'restart.test':
    "the files in the data directory across restarts: it starts npm start's process with DATABASE_URL and REDIS_URL removed, so it runs on the embedded stores in either pass",
  'conformance.test': 'schemathesis sees the same documents and handlers whatever the stores (and runs ~3 minutes)',
  'conformance-accounts.test': 'schemathesis sees the same documents and handlers whatever the stores (and runs ~3 minutes)',
  'architecture.test': 'lint rules on the source tree; no store',
  'bench-verdicts.test': "the benchmarks' verdicts on invalid measurements; no store",
  'date-params.test': 'request validation before any store; the stores see only values in UTC',
  'egress.test': 'outbound address rules; no store',
  'stripe-mock-build.test': 'when a tool is built into the cache; the stores play no part',
  'free-text.test': "validation of request text and the pages' escaping; the stores only keep the text",
  'logging.test': 'log redaction; no store',
  'upstream-formats.test': 'upstream file parsers; no store',
  'signed-tokens.test': 'the signing module and its keyring files; sessions through the interface alone',
  'clickhouse-access.test': 'ClickHouse (chDB in both passes) through /clickhouse',
  'clickhouse-smuggling.test': 'ClickHouse (chDB in both passes) through /clickhouse',
  'recognition.test': 'image matching in process; its quota counter uses the Redis interface alone',
  'demo-load.test': 'the demo loader into ClickHouse and PostgreSQL queries prepared in typed-queries',
  'demo-market.test': 'the demo market model; queries prepared in typed-queries',
  'ingestion-workflows.test': 'Temporal workflows; their PostgreSQL queries prepared in typed-queries',
  'upstream-connectors.test':
    'upstream connectors against local servers at the real paths; the feed bookkeeping through queries prepared in typed-queries',
  'price-normalisation.test': 'normalisation rules into ClickHouse',
  'history-charts.test': 'charts drawn from ClickHouse history',
  'bulk-export.test': 'export files written by ClickHouse',
  'images.test': 'image files and their store on disk',
  'access.test': 'access tags over the interfaces; rate limits lifted for the walk',
  'auth.test': 'sessions and keys in PostgreSQL through queries prepared in typed-queries',
  'alert-settings.test': 'settings rows through queries prepared in typed-queries',
  'alerts-and-webhooks.test': 'alert evaluation and signed deliveries; queues through the interfaces',
  'app-manifest.test': 'manifest rows through queries prepared in typed-queries',
  'collection.test': 'collection rows through queries prepared in typed-queries',
  'decks.test': 'deck rows through queries prepared in typed-queries',
  'http-conventions.test': 'HTTP conventions of the handlers',
  'legacy-catalogue.test': 'catalogue reads through queries prepared in typed-queries',
  'legacy-prices.test': 'analytics from ClickHouse',
  'market.test': 'analytics from ClickHouse',
  'marketplace-listings.test': 'listing rows through queries prepared in typed-queries',
  'marketplace-messages.test': 'message rows through queries prepared in typed-queries',
  'payments-off.test': 'a deployment without payments: configuration alone',
  'pokemontcg-compat.test': 'the compatibility grammar through queries prepared in typed-queries',
  'portal.test': 'portal pages in a browser over the same handlers',
  'push.test': 'push deliveries to receivers; queues through the interfaces',
  'response-headers.test': 'headers of the handlers',
  'status.test': 'status checks over the interfaces',
  'untrusted-text.test': 'hostile input to parsers before any store',
  'v2-catalogue.test': 'catalogue reads through queries prepared in typed-queries',
  'v2-prices.test': 'prices from ClickHouse',
};

// The one place that reads process.env. Every other module receives a Config.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .optional()
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

/**
 * The upstreams prices, rates and catalogues are read from: each one's public host, the variables
 * holding its credentials (required: without them the source is off; optional: it works without,
 * under lower limits) and its default request budget, from each upstream's published limits.
 */
export const UPSTREAMS = {
  // docs.pokemontcg.io: 20,000 requests a day with a key, 1,000 (30 a minute) without.
  pokemontcg: {
    url: 'https://api.pokemontcg.io',
    credentials: ['HOLO_POKEMONTCG_API_KEY'],
    required: false,
    concurrency: 2,
    spacingMs: 100,
  },
  // scryfall.com/docs/api/rate-limits: 10 requests a second on api.scryfall.com (50–100 ms apart).
  scryfall: { url: 'https://api.scryfall.com', credentials: [], required: false, concurrency: 1, spacingMs: 100 },
  cardmarket: { url: 'https://downloads.s3.cardmarket.com', credentials: [], required: false, concurrency: 1, spacingMs: 0 },
  // TCGplayer: at most 10 requests a second per application.
  tcgplayer: {
    url: 'https://api.tcgplayer.com',
    credentials: ['HOLO_TCGPLAYER_CLIENT_ID', 'HOLO_TCGPLAYER_CLIENT_SECRET'],
    required: true,
    concurrency: 2,
    spacingMs: 100,
  },
  pricecharting: {
    url: 'https://www.pricecharting.com',
    credentials: ['HOLO_PRICECHARTING_TOKEN'],
    required: true,
    concurrency: 1,
    spacingMs: 1000,
  },
  ebay: {
    url: 'https://api.ebay.com',
    credentials: ['HOLO_EBAY_CLIENT_ID', 'HOLO_EBAY_CLIENT_SECRET'],
    required: true,
    concurrency: 4,
    spacingMs: 0,
  },
  ecb: { url: 'https://www.ecb.europa.eu', credentials: [], required: false, concurrency: 1, spacingMs: 0 },
  // Catalogues only: LorcanaJSON's published files (lorcanajson.org) and the-fab-cube's
  // flesh-and-blood-cards repository as GitHub serves its raw files.
  lorcanajson: { url: 'https://lorcanajson.org', credentials: [], required: false, concurrency: 1, spacingMs: 0 },
  fabcube: { url: 'https://raw.githubusercontent.com', credentials: [], required: false, concurrency: 2, spacingMs: 0 },
} as const satisfies Record<string, { url: string; credentials: string[]; required: boolean; concurrency: number; spacingMs: number }>;
export type UpstreamName = keyof typeof UPSTREAMS;
export const UPSTREAM_NAMES = Object.keys(UPSTREAMS) as UpstreamName[];

export type UpstreamConfig = {
  url: string;
  /** The URL was set explicitly (HOLO_<SOURCE>_URL), so a demo mirror leaves it alone. */
  urlSet: boolean;
  /** Each credential variable and its value (undefined: not set). */
  credentials: Record<string, string | undefined>;
  concurrency: number;
  spacingMs: number;
};

const envName = (name: string) => `HOLO_${name.toUpperCase()}`;

/** HOLO_<SOURCE>_URL, its credentials, HOLO_<SOURCE>_CONCURRENCY and HOLO_<SOURCE>_SPACING_MS, for every upstream. */
function upstreamEnv() {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, u] of Object.entries(UPSTREAMS)) {
    shape[`${envName(name)}_URL`] = optionalUrl(['http://', 'https://']);
    for (const variable of u.credentials) shape[variable] = z.string().trim().min(1).optional();
    shape[`${envName(name)}_CONCURRENCY`] = z.coerce.number().int().min(1).max(64).default(u.concurrency);
    shape[`${envName(name)}_SPACING_MS`] = z.coerce.number().int().min(0).max(60_000).default(u.spacingMs);
  }
  return shape as Record<string, z.ZodOptional<z.ZodString> | z.ZodDefault<z.ZodNumber>>;
}

/**
 * The credentials the local upstream mirror accepts (it checks them as the real services do): the
 * demo's, used for every credential variable that is not set while the mirror stands in.
 */
export const MIRROR_CREDENTIALS: Record<string, string> = {
  HOLO_POKEMONTCG_API_KEY: 'holo-mirror-pokemontcg-key',
  HOLO_TCGPLAYER_CLIENT_ID: 'holo-mirror-tcgplayer-client',
  HOLO_TCGPLAYER_CLIENT_SECRET: 'holo-mirror-tcgplayer-secret',
  HOLO_PRICECHARTING_TOKEN: 'holo0mirror0pricecharting0token000000000',
  HOLO_EBAY_CLIENT_ID: 'holo-mirror-ebay-client',
  HOLO_EBAY_CLIENT_SECRET: 'holo-mirror-ebay-secret',
};

/** Upstreams as configured; with `mirror`, every URL not set explicitly points at it, with its credentials. */
function upstreamConfig(e: Record<string, unknown>, mirror: string | null): Record<UpstreamName, UpstreamConfig> {
  const out = {} as Record<UpstreamName, UpstreamConfig>;
  for (const name of UPSTREAM_NAMES) {
    const u = UPSTREAMS[name];
    const url = e[`${envName(name)}_URL`] as string | undefined;
    const mirrored = mirror !== null && url === undefined;
    out[name] = {
      url: (url ?? mirror ?? u.url).replace(/\/$/, ''),
      urlSet: url !== undefined,
      credentials: Object.fromEntries(
        u.credentials.map((v) => [v, (e[v] as string | undefined) ?? (mirrored ? MIRROR_CREDENTIALS[v] : undefined)]),
      ),
      concurrency: e[`${envName(name)}_CONCURRENCY`] as number,
      spacingMs: e[`${envName(name)}_SPACING_MS`] as number,
    };
  }
  return out;
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  HOLO_DATA_DIR: z.string().min(1).default('.holo-data'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  CLICKHOUSE_URL: optionalUrl(['http://', 'https://']),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  HOLO_EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  // Public origin of the main site; the CORS allow-list is derived from it (spec: Authentication 14).
  HOLO_SITE_ORIGIN: z.url().default('https://holo.example'),
  // The developer portal listens on its own port (its own origin); HOLO_PORTAL_URL is its public
  // origin behind a proxy (e.g. https://developer.holo.example), else http://HOST:PORTAL_PORT.
  HOLO_PORTAL_PORT: z.coerce.number().int().min(0).max(65535).default(8001),
  HOLO_PORTAL_URL: z.url().optional(),
  HOLO_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // Demo data loaded into an empty data directory: which games, and how many days of history.
  HOLO_DEMO: z.enum(['full', 'small', 'none']).default('full'),
  HOLO_DEMO_HISTORY_DAYS: z.coerce.number().int().min(30).max(3650).default(365),
  // ClickHouse DDL flavour: single node (MergeTree family) or a cluster (Replicated* + Distributed).
  HOLO_CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/)
    .optional(),
  // A ClickHouse server's read-only user for data teams (sql/README.md), created at migration when
  // the password is set; embedded chDB serves the same reads at /clickhouse instead.
  HOLO_CLICKHOUSE_READER_USER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
    .default('holo_reader'),
  HOLO_CLICKHOUSE_READER_PASSWORD: z.string().min(16).optional(),
  HOLO_SHARED_DATA_DIR: z.string().min(1).default('../shared/data'),
  // Temporal: an external cluster's frontend (host:port); unset starts Temporal's dev server.
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[A-Za-z0-9.-]+:\d+$/)
    .optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  HOLO_TEMPORAL_BIN: z.string().min(1).optional(),
  // Embedded mode: the dev server's ports, and the local market feed server's.
  HOLO_TEMPORAL_PORT: z.coerce.number().int().min(1024).max(65535).default(7233),
  HOLO_TEMPORAL_UI_PORT: z.coerce.number().int().min(1024).max(65535).default(8233),
  HOLO_FEEDS_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  // The local upstream mirror (ingest/demoMarket/feedServer.ts) in place of the real hosts: auto =
  // with demo data outside production; each HOLO_<SOURCE>_URL set explicitly still wins.
  HOLO_MIRROR: z.enum(['auto', 'on', 'off']).default('auto'),
  // Ingestion (Temporal, the worker, schedules) inside the API process: auto = when ClickHouse is
  // the embedded chDB, which only this process can open; on = always; off = never.
  HOLO_INGEST: z.enum(['auto', 'on', 'off']).default('auto'),
  // Namespace of every Redis key and channel, so several installations can share one Redis.
  HOLO_REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/)
    .default('holo'),
  // Bearer token of the operator endpoints (/api/admin/...); unset: one is generated into
  // HOLO_DATA_DIR/admin-token (mode 0600) on first start.
  HOLO_ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  // Key of the session cookie's HS256 signature; unset: generated into HOLO_DATA_DIR/session-secret.
  // Several API instances must share it (set it, or share the data directory).
  HOLO_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Previous keys, comma-separated: they verify the tokens they signed (until those expire, at
  // most 30 days) but sign nothing. README "Tokens and secrets" has the rotation procedure.
  HOLO_SESSION_SECRET_PREVIOUS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, 'each key must be at least 32 characters'))),
  // Proxies in front of the API and portal that each append the address they saw to
  // X-Forwarded-For: the client's address is that many entries from the end (0: the socket's,
  // the header ignored). Per-address limits (anonymous calls, sign-ins, registrations) count it.
  HOLO_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  // Requests a minute per client IP without credentials (spec: 30).
  HOLO_ANONYMOUS_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(30),
  // Password guessing (README, Login throttling): failed password checks a window allows per login
  // name from one client address (or per account, for a password change) and per client address,
  // registrations per address, and the window's length; past a limit the answer is 429 with
  // Retry-After until it ends.
  HOLO_LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(5),
  HOLO_LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  // The ceiling of failed sign-ins at one name from every address together (distributed guessing);
  // a browser that signed in to the account before is not held to it.
  HOLO_LOGIN_FAILURES_PER_NAME: z.coerce.number().int().min(1).max(1_000_000).default(100),
  HOLO_REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  HOLO_LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  // WebSocket price stream: seconds between server pings (a connection silent for two is closed),
  // and open streams per API key on one instance.
  // How often the status monitor probes the stores, ingestion and queues (/api/status/checks).
  HOLO_STATUS_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  // Worker threads that run a photo's recognition passes (each with its own OpenCV, ~60 MB); 0 runs
  // them on the request thread. Default: one per core, at most 4.
  HOLO_RECOGNITION_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  HOLO_WS_PING_SECONDS: z.coerce.number().min(0.05).max(300).default(30),
  HOLO_WS_MAX_CONNECTIONS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(20),
  // Webhooks: the key that encrypts endpoint secrets at rest (unset: generated into
  // HOLO_DATA_DIR/webhook-key; API instances and workers must share it), attempts per delivery,
  // the first retry delay (doubling up to 10 minutes), and consecutive failed deliveries after
  // which an endpoint is disabled.
  HOLO_WEBHOOK_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  HOLO_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  HOLO_WEBHOOK_RETRY_SECONDS: z.coerce.number().min(0.01).max(3600).default(5),
  HOLO_WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).max(1000).default(10),
  // E-mail: an SMTP server (smtp://user:pass@host:587 or smtps://…); unset: the outbox only.
  HOLO_SMTP_URL: optionalUrl(['smtp://', 'smtps://']),
  HOLO_MAIL_FROM: z.string().min(3).default('Holo <alerts@holo.example>'),
  // Web Push: the VAPID private key (32 bytes, base64url; else generated into the data directory)
  // and the contact push services see (RFC 8292: mailto: or https:; default HOLO_SITE_ORIGIN).
  HOLO_VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'a P-256 private key: 32 bytes, base64url')
    .optional(),
  HOLO_VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'mailto:… or https://…')
    .optional(),
  // A push that fails is tried again after HOLO_PUSH_RETRY_SECONDS × 4^(attempt − 1), at most HOLO_PUSH_MAX_ATTEMPTS times.
  // APNs (token-based: the team's .p8 key, its id, the team, the app's bundle id) and FCM HTTP v1 (a
  // service account's JSON file); either is off until configured.
  HOLO_APNS_KEY_FILE: z.string().min(1).optional(),
  HOLO_APNS_KEY_ID: z.string().min(1).optional(),
  HOLO_APNS_TEAM_ID: z.string().min(1).optional(),
  HOLO_APNS_TOPIC: z.string().min(1).optional(),
  HOLO_APNS_URL: z.url().default('https://api.push.apple.com'),
  HOLO_FCM_SERVICE_ACCOUNT_FILE: z.string().min(1).optional(),
  HOLO_FCM_URL: z.url().default('https://fcm.googleapis.com'),
  HOLO_PUSH_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  HOLO_PUSH_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Payments (Stripe Checkout): the account's secret key and the signing secret of the webhook
  // endpoint that Stripe calls (POST /api/payments/stripe/webhook). Unset outside production:
  // Stripe's own API mock server, stripe-mock, on this machine; unset in production: checkout is
  // refused (503 payments_unavailable). HOLO_STRIPE_API_URL points the SDK at another
  // Stripe-compatible API (an external stripe-mock) instead of api.stripe.com.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  HOLO_STRIPE_API_URL: optionalUrl(['http://', 'https://']),
  ...upstreamEnv(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  clickhouseUrl: string | undefined;
  redisUrl: string | undefined;
  embeddedPgPort: number;
  siteOrigin: string;
  portalPort: number;
  portalUrl: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  demo: 'full' | 'small' | 'none';
  demoHistoryDays: number;
  clickhouseCluster: string | undefined;
  /** The ClickHouse server's read-only user, when its password is configured. */
  clickhouseReader: { user: string; password: string } | undefined;
  sharedDataDir: string;
  redisPrefix: string;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  temporalBin: string | undefined;
  temporalPort: number;
  temporalUiPort: number;
  feedsPort: number;
  /** Whether the local upstream mirror stands in for the real hosts (HOLO_MIRROR, resolved). */
  mirror: 'on' | 'off';
  /** Where each upstream is read from, with what credentials and request budget. */
  upstreams: Record<UpstreamName, UpstreamConfig>;
  ingest: 'auto' | 'on' | 'off';
  adminToken: string | undefined;
  sessionSecret: string | undefined;
  sessionSecretPrevious: string[];
  trustedProxyHops: number;
  anonymousPerMinute: number;
  loginThrottle: {
    failuresPerAccount: number;
    failuresPerName: number;
    failuresPerAddress: number;
    registrationsPerAddress: number;
    windowSeconds: number;
  };
  wsPingSeconds: number;
  recognitionThreads: number;
  statusIntervalSeconds: number;
  wsMaxConnectionsPerKey: number;
  webhookKey: string | undefined;
  webhookMaxAttempts: number;
  webhookRetrySeconds: number;
  webhookDisableAfter: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  vapidPrivateKey: string | undefined;
  vapidSubject: string;
  pushMaxAttempts: number;
  apns: { keyFile: string; keyId: string; teamId: string; topic: string; url: string } | null;
  fcm: { serviceAccountFile: string; url: string } | null;
  pushRetrySeconds: number;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiUrl: string | undefined;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings mean "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET)
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (payments are confirmed by its signed webhook)',
    );
  const apnsSet = [e.HOLO_APNS_KEY_FILE, e.HOLO_APNS_KEY_ID, e.HOLO_APNS_TEAM_ID, e.HOLO_APNS_TOPIC].filter(Boolean).length;
  if (apnsSet > 0 && apnsSet < 4)
    throw new ConfigError(
      'Invalid configuration:\n  HOLO_APNS_KEY_FILE, HOLO_APNS_KEY_ID, HOLO_APNS_TEAM_ID, HOLO_APNS_TOPIC: all four, or none (APNs off)',
    );
  // The demo's market is the local mirror: with demo data outside production, unless turned off.
  const mirrorOn = e.HOLO_MIRROR === 'on' || (e.HOLO_MIRROR === 'auto' && e.HOLO_DEMO !== 'none' && e.NODE_ENV !== 'production');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.HOLO_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    clickhouseUrl: e.CLICKHOUSE_URL,
    redisUrl: e.REDIS_URL,
    embeddedPgPort: e.HOLO_EMBEDDED_PG_PORT,
    siteOrigin: e.HOLO_SITE_ORIGIN.replace(/\/$/, ''),
    portalPort: e.HOLO_PORTAL_PORT,
    portalUrl: e.HOLO_PORTAL_URL?.replace(/\/$/, ''),
    logLevel: e.HOLO_LOG_LEVEL,
    demo: e.HOLO_DEMO,
    demoHistoryDays: e.HOLO_DEMO_HISTORY_DAYS,
    clickhouseCluster: e.HOLO_CLICKHOUSE_CLUSTER,
    clickhouseReader: e.HOLO_CLICKHOUSE_READER_PASSWORD
      ? { user: e.HOLO_CLICKHOUSE_READER_USER, password: e.HOLO_CLICKHOUSE_READER_PASSWORD }
      : undefined,
    sharedDataDir: path.resolve(e.HOLO_SHARED_DATA_DIR),
    redisPrefix: e.HOLO_REDIS_PREFIX,
    temporalAddress: e.TEMPORAL_ADDRESS,
    temporalNamespace: e.TEMPORAL_NAMESPACE,
    temporalBin: e.HOLO_TEMPORAL_BIN,
    temporalPort: e.HOLO_TEMPORAL_PORT,
    temporalUiPort: e.HOLO_TEMPORAL_UI_PORT,
    feedsPort: e.HOLO_FEEDS_PORT,
    mirror: mirrorOn ? 'on' : 'off',
    upstreams: upstreamConfig(e, mirrorOn ? `http://127.0.0.1:${e.HOLO_FEEDS_PORT}` : null),
    ingest: e.HOLO_INGEST,
    adminToken: e.HOLO_ADMIN_TOKEN,
    sessionSecret: e.HOLO_SESSION_SECRET,
    sessionSecretPrevious: e.HOLO_SESSION_SECRET_PREVIOUS,
    trustedProxyHops: e.HOLO_TRUSTED_PROXY_HOPS,
    anonymousPerMinute: e.HOLO_ANONYMOUS_RATE_LIMIT,
    loginThrottle: {
      failuresPerAccount: e.HOLO_LOGIN_FAILURES_PER_ACCOUNT,
      failuresPerName: e.HOLO_LOGIN_FAILURES_PER_NAME,
      failuresPerAddress: e.HOLO_LOGIN_FAILURES_PER_ADDRESS,
      registrationsPerAddress: e.HOLO_REGISTRATIONS_PER_ADDRESS,
      windowSeconds: e.HOLO_LOGIN_WINDOW_SECONDS,
    },
    wsPingSeconds: e.HOLO_WS_PING_SECONDS,
    // Each thread holds its own OpenCV (~70 MB); one photo's passes gain little beyond 4 threads.
    recognitionThreads: e.HOLO_RECOGNITION_THREADS ?? Math.min(4, os.availableParallelism()),
    statusIntervalSeconds: e.HOLO_STATUS_INTERVAL_SECONDS,
    wsMaxConnectionsPerKey: e.HOLO_WS_MAX_CONNECTIONS_PER_KEY,
    webhookKey: e.HOLO_WEBHOOK_KEY,
    webhookMaxAttempts: e.HOLO_WEBHOOK_MAX_ATTEMPTS,
    webhookRetrySeconds: e.HOLO_WEBHOOK_RETRY_SECONDS,
    webhookDisableAfter: e.HOLO_WEBHOOK_DISABLE_AFTER,
    smtpUrl: e.HOLO_SMTP_URL,
    mailFrom: e.HOLO_MAIL_FROM,
    vapidPrivateKey: e.HOLO_VAPID_PRIVATE_KEY,
    vapidSubject: e.HOLO_VAPID_SUBJECT ?? e.HOLO_SITE_ORIGIN.replace(/\/$/, ''),
    pushMaxAttempts: e.HOLO_PUSH_MAX_ATTEMPTS,
    apns: e.HOLO_APNS_KEY_FILE
      ? {
          keyFile: e.HOLO_APNS_KEY_FILE,
          keyId: e.HOLO_APNS_KEY_ID!,
          teamId: e.HOLO_APNS_TEAM_ID!,
          topic: e.HOLO_APNS_TOPIC!,
          url: e.HOLO_APNS_URL.replace(/\/$/, ''),
        }
      : null,
    fcm: e.HOLO_FCM_SERVICE_ACCOUNT_FILE
      ? { serviceAccountFile: e.HOLO_FCM_SERVICE_ACCOUNT_FILE, url: e.HOLO_FCM_URL.replace(/\/$/, '') }
      : null,
    pushRetrySeconds: e.HOLO_PUSH_RETRY_SECONDS,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeApiUrl: e.HOLO_STRIPE_API_URL?.replace(/\/$/, ''),
  };
}

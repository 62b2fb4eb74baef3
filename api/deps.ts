// What handlers get: typed store access, the cache, config and a logger — never raw env or ctx state.
import type { Cache } from './cache.js';
import type { Config } from '../schemas/config.js';
import type { Analytics } from '../sql/stores/analytics.js';
import type { PrecomputedAnalytics } from './legacy/precomputedAnalytics.js';
import type { Db } from '../sql/stores/db.js';
import type { Logger } from '../sql/runtime/log.js';
import type { Tokens } from '../sql/runtime/signedTokens.js';
import type { Stores } from '../sql/stores/index.js';
import type { AdminGuard } from './http/adminToken.js';
import type { KeyCache } from './auth/keyCache.js';
import type { ImageStore } from '../sql/stores/images.js';
import type { PriceStream } from './stream/priceStream.js';
import type { SecretBox } from '../ingest/events/signing.js';
import type { VapidKeys } from '../ingest/events/push.js';
import type { IngestOperations } from '../workflows/operations.js';
import type { IngestionState } from '../workflows/ingestion.js';
import type { StatusMonitor } from './status/monitor.js';
import type { LiveRecognitionIndex } from '../ingest/recognition/indexLoad.js';
import type { RecognitionThreads } from '../ingest/recognition/passWorkers.js';

export type RequestCounters = { total: number; inFlight: number; byStatus: Record<string, number>; startedAt: number };

export type AppDeps = {
  config: Config;
  log: Logger;
  stores: Stores;
  db: Db;
  analytics: Analytics;
  /** ClickHouse's answers precomputed when prices land (per-card analytics and series, movers, index), ClickHouse otherwise. */
  precomputed: PrecomputedAnalytics;
  cache: Cache;
  images: ImageStore;
  counters: RequestCounters;
  /** Operator actions on ingestion, over Temporal (connected on first use). */
  ingest: IngestOperations;
  admin: AdminGuard;
  /** Signs and verifies every token (session cookie, links, claims, CSRF) with the keyring. */
  tokens: Tokens;
  keyCache: KeyCache;
  /** Seals and opens webhook signing secrets (key shared by API instances and workers). */
  webhookBox: SecretBox;
  /** Web Push's VAPID keys: browsers subscribe with the public one. */
  vapid: VapidKeys;
  /** Ingestion inside this process (embedded mode), as /api/health reports it; null when it runs elsewhere. */
  ingestion: (() => IngestionState) | null;
  /** The WebSocket price stream of this instance. */
  stream: PriceStream;
  /** This instance's status checks and the incidents it opens and resolves. */
  status: StatusMonitor;
  /** The recognition index in memory, reloaded when PostgreSQL's changes. */
  recognitionIndex: LiveRecognitionIndex;
  /** The worker threads recognition passes run on. */
  recognitionThreads: RecognitionThreads;
};

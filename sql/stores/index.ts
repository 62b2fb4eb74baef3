import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';
import { openClickHouse, type ClickHouseStore } from './clickhouse.js';
import { openPostgres, type PostgresStore } from './postgres.js';
import { openRedis, type RedisStore } from './redis.js';
import { openPayments, type Payments } from '../external/stripe.js';

export type Stores = { pg: PostgresStore; ch: ClickHouseStore; redis: RedisStore; payments: Payments; close(): Promise<void> };

export async function openStores(config: Config, log: Logger): Promise<Stores> {
  const pg = await openPostgres(config, log);
  const ch = await openClickHouse(config, log);
  const redis = await openRedis(config, log);
  const payments = await openPayments(config, log);
  return {
    pg,
    ch,
    redis,
    payments,
    close: async () => {
      await payments.close();
      await redis.close();
      await ch.close();
      await pg.close();
    },
  };
}

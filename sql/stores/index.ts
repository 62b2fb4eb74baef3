import type { Config } from '../../schemas/config.js';
import type { Logger } from '../runtime/log.js';
import { openClickHouse, type ClickHouseStore } from './clickhouse.js';
import { openPostgres, type PostgresStore } from './postgres.js';
import { openRedis, type RedisStore } from './redis.js';

export type Stores = { pg: PostgresStore; ch: ClickHouseStore; redis: RedisStore; close(): Promise<void> };

export async function openStores(config: Config, log: Logger): Promise<Stores> {
  const pg = await openPostgres(config, log);
  const ch = await openClickHouse(config, log);
  const redis = await openRedis(config, log);
  return {
    pg,
    ch,
    redis,
    close: async () => {
      await redis.close();
      await ch.close();
      await pg.close();
    },
  };
}

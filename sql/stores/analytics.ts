// ClickHouse reads as the app sees them: typed rows, connection failures as StoreUnavailableError.
import type { ClickHouseClient } from '@clickhouse/client';
import { isClickHouseUnavailable, StoreUnavailableError } from './unavailable.js';

export type Analytics = { rows<T>(query: string, params?: Record<string, unknown>): Promise<T[]> };

// readonly guards the API's reads on a ClickHouse server (per HTTP request). chDB keeps settings for
// the whole in-process session, where readonly would also lock out the loader, so embedded mode
// relies on the API simply having no write path.
export function createAnalytics(client: ClickHouseClient, opts: { readonly: boolean; isClosed: () => boolean }): Analytics {
  const settings = opts.readonly ? { readonly: '2' as const } : {};
  return {
    async rows<T>(query: string, params: Record<string, unknown> = {}) {
      if (opts.isClosed()) throw new StoreUnavailableError('clickhouse', new Error('connection closed'));
      try {
        const rs = await client.query({ query, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings });
        return await rs.json<T>();
      } catch (err) {
        if (isClickHouseUnavailable(err)) throw new StoreUnavailableError('clickhouse', err);
        throw err;
      }
    },
  };
}

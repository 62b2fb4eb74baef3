// The sources report (npm run ingest -- sources, GET /api/admin/ingest/sources): every upstream,
// where it is read from, whether its credentials are set (never their values), and per feed the
// last success, its rows, how fresh the last check is and the last failure's reason.
import type pg from 'pg';
import { UPSTREAM_NAMES, UPSTREAMS, type UpstreamConfig, type UpstreamName } from '../../schemas/config.js';
import { feedSourcesState } from '../../sql/status.js';
import { PRICE_CONNECTORS } from './registry.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The games each upstream's feeds are for (the ECB's rates: fx). */
const gamesOf = (name: UpstreamName) => (name === 'ecb' ? ['fx'] : (PRICE_CONNECTORS[name]?.games ?? []));

export async function sourcesReport(pool: pg.Pool, upstreams: Record<UpstreamName, UpstreamConfig>, now = new Date()) {
  const state = await feedSourcesState(pool);
  return UPSTREAM_NAMES.map((name) => {
    const config = upstreams[name];
    const credentials = Object.entries(config.credentials).map(([variable, value]) => ({ variable, present: Boolean(value) }));
    const required = UPSTREAMS[name].required;
    return {
      source: name,
      url: config.url,
      credentials,
      credentials_required: required,
      on: !required || credentials.every((c) => c.present),
      feeds: gamesOf(name).map((game) => {
        const s = state.find((r) => r.source === name && r.game === game);
        return {
          game,
          last_success_at: iso(s?.last_loaded_at ?? null),
          rows: s?.last_rows ?? null,
          last_checked_at: iso(s?.last_checked_at ?? null),
          freshness_s: s?.last_checked_at ? Math.round((now.getTime() - s.last_checked_at.getTime()) / 1000) : null,
          last_error: s?.last_error ?? null,
          last_failed_at: iso(s?.last_failed_at ?? null),
        };
      }),
    };
  });
}

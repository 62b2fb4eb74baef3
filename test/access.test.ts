// Every registered route against every kind of caller: the status the route's access tag allows,
// and nothing else. Allowed means the request got past authentication and authorisation (its
// handler may still answer 400, 404 or 422 to the dummy input); refused means exactly 401 or 403.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allRoutes } from '../api/app.js';
import type { Access } from '../api/auth/principal.js';
import type { Tier } from '../schemas/tiers.js';
import { DEPRECATIONS } from '../api/http/deprecations.js';
import fs from 'node:fs';
import path from 'node:path';
import { accountWithKey } from './support/accounts.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
const callers: Record<string, Record<string, string>> = { anonymous: {} };

before(async () => {
  stack = await startStack({ demo: 'none' });
  const keyFor = async (name: string, tier: Tier, admin = false) => (await accountWithKey(stack, name, tier, { admin })).headers;
  callers['free key'] = await keyFor('freeuser', 'free');
  callers['starter key'] = await keyFor('starteruser', 'starter');
  callers['pro key'] = await keyFor('prouser', 'pro');
  callers['business key'] = await keyFor('shopuser', 'shop_basic');
  callers['admin key'] = await keyFor('adminuser', 'free', true);
  callers['operator token'] = { Authorization: `Bearer ${fs.readFileSync(path.join(stack.config.dataDir, 'admin-token'), 'utf8').trim()}` };
});
after(async () => {
  await stack?.close();
});

/** Whether a caller may pass a route's access tag. */
function allowed(access: Access, caller: string): boolean {
  if (access === 'free' || access === 'signed') return true;
  if (caller === 'anonymous') return false;
  if (caller === 'operator token' || (access === 'admin' && caller === 'admin key')) return true;
  if (access === 'admin') return false;
  if (access === 'auth') return true;
  if (access === 'starter+') return caller !== 'free key' && caller !== 'admin key';
  if (access === 'business+') return caller === 'business key';
  if (access === 'pro+|admin') return caller === 'pro key' || caller === 'business key' || caller === 'admin key';
  return caller === 'pro key' || caller === 'business key'; // pro+
}

/** starter+ routes that create what only an account can own (a scan session). */
const OWNED_BY_AN_ACCOUNT = new Set(['POST /api/scan-sessions']);

// Ids that name nothing: a walk that may call DELETE and POST routes must not change anything.
const fill = (p: string) =>
  p.replace(/\{(\w+)\}/g, (_, name: string) => (/slug/.test(name) ? 'pokemon' : name === 'workflow_id' ? 'none' : '999999'));

describe('access tags', () => {
  it('every route answers every caller as its tag says', async () => {
    const routes = allRoutes(stack.server.deps);
    assert.ok(routes.length > 60);
    const failures: string[] = [];
    for (const route of routes) {
      for (const [caller, headers] of Object.entries(callers)) {
        // Auth routes need an account: the operator token has none (403 by design).
        if (caller === 'operator token' && (route.access === 'auth' || route.access === 'business+')) continue;
        // So do starter+ routes that make something an account owns.
        if (caller === 'operator token' && OWNED_BY_AN_ACCOUNT.has(`${route.method.toUpperCase()} ${route.path}`)) continue;
        const res = await fetch(stack.url + fill(route.path), {
          method: route.method.toUpperCase(),
          headers: { ...headers, Accept: 'application/json' },
        });
        // The status event stream never ends: its headers are the answer.
        if (res.headers.get('content-type')?.startsWith('text/event-stream')) await res.body?.cancel();
        else await res.arrayBuffer();
        const refused = res.status === 401 || res.status === 403;
        if (allowed(route.access, caller) === refused)
          failures.push(`${route.method.toUpperCase()} ${route.path} (${route.access}) as ${caller}: ${res.status}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('marks deprecated endpoints with Deprecation, Sunset and a successor link', async () => {
    for (const d of DEPRECATIONS) {
      const res = await fetch(stack.url + d.path);
      assert.equal(res.headers.get('deprecation'), 'true');
      assert.equal(res.headers.get('sunset'), new Date(`${d.sunset}T00:00:00Z`).toUTCString());
      assert.equal(res.headers.get('link'), `<${d.successor}>; rel="successor-version"`);
    }
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as any;
    assert.equal(doc.paths['/api/market-movers'].get.deprecated, true);
    assert.equal(doc.paths['/api/market/movers'].get.deprecated, undefined);
  });
});

// Accounts, sessions, API keys and rate limits over real stores (PostgreSQL, Redis): what a
// developer sees registering, logging in, managing keys and hitting limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, register } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
before(async () => {
  stack = await startStack({ demo: 'none' });
});
after(async () => {
  await stack?.close();
});

describe('registration and sessions', () => {
  it('registers, lowercases the username, and starts a 30-day HttpOnly Secure session', async () => {
    const res = await register(stack, 'Alice');
    assert.equal(res.status, 201);
    assert.deepEqual([res.body.ok, res.body.username], [true, 'alice']);
    const setCookie = res.headers.get('set-cookie')!;
    assert.match(setCookie, /^tcg_session=[\w-]+\.[\w-]+\.[\w-]+; /);
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Lax', 'Max-Age=2592000', 'Path=/'])
      assert.ok(setCookie.includes(attribute), attribute);
    const me = await call(stack, 'GET', '/auth/me', { cookie: res.cookie });
    assert.deepEqual(
      [me.status, me.body.username, me.body.email, me.body.is_admin, me.body.is_seller],
      [200, 'alice', 'Alice@example.com', false, false],
    );
    assert.equal('password_hash' in me.body, false);
  });

  it('refuses a taken username or e-mail, an invalid e-mail, a short password and a missing field with 400', async () => {
    const cases: [unknown, RegExp][] = [
      [{ username: 'ALICE', email: 'other@example.com', password: 'long enough' }, /Username already taken/],
      [{ username: 'alice2', email: 'ALICE@example.com', password: 'long enough' }, /E-mail already registered/],
      [{ username: 'bob', email: 'not-an-email', password: 'long enough' }, /invalid e-mail/],
      [{ username: 'bob', email: 'bob@example.com', password: 'short' }, /at least 8/],
      [{ username: 'bo', email: 'bob@example.com', password: 'long enough' }, /3 to 30/],
      [{ email: 'bob@example.com', password: 'long enough' }, /Missing field: username/],
      [{ username: 'bob', password: 'long enough' }, /Missing field: email/],
      [{ username: 'bob', email: 'bob@example.com' }, /Missing field: password/],
    ];
    for (const [body, detail] of cases) {
      const res = await call(stack, 'POST', '/auth/register', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, detail);
    }
    const count = (await stack.stores.pg.pool.query(`SELECT count(*)::int AS n FROM users WHERE username LIKE 'bo%'`)).rows[0].n;
    assert.equal(count, 0, 'nothing was created');
  });

  it('logs in by username or e-mail, and revokes the session on logout', async () => {
    assert.equal((await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'wrong password' } })).status, 401);
    const byEmail = await call(stack, 'POST', '/auth/login', {
      body: { username: 'Alice@Example.com', password: 'correct horse battery' },
    });
    assert.equal(byEmail.status, 200);
    const byName = await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'correct horse battery' } });
    assert.equal((await call(stack, 'POST', '/auth/logout', { cookie: byName.cookie })).status, 200);
    assert.equal(
      (await call(stack, 'GET', '/auth/me', { cookie: byName.cookie })).status,
      401,
      'the cookie outlives the session, not the other way round',
    );
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie: byEmail.cookie })).status, 200, 'other sessions stay');
    // A forged or tampered cookie is no session.
    const [h, p] = byEmail.cookie!.split('=')[1]!.split('.');
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie: `tcg_session=${h}.${p}.AAAA` })).status, 401);
  });

  it('revokes every session when the password changes', async () => {
    const a = await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'correct horse battery' } });
    const b = await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'correct horse battery' } });
    assert.equal(
      (
        await call(stack, 'POST', '/auth/change-password', {
          cookie: a.cookie,
          body: { current_password: 'nope nope', new_password: 'a new password' },
        })
      ).status,
      400,
    );
    const changed = await call(stack, 'POST', '/auth/change-password', {
      cookie: a.cookie,
      body: { current_password: 'correct horse battery', new_password: 'a new password' },
    });
    assert.equal(changed.status, 200);
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie: b.cookie })).status, 401);
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie: a.cookie })).status, 401);
    assert.equal(
      (await call(stack, 'GET', '/auth/me', { cookie: changed.cookie })).status,
      200,
      'the client that changed it gets a fresh session',
    );
    assert.equal(
      (await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'correct horse battery' } })).status,
      401,
    );
    assert.equal((await call(stack, 'POST', '/auth/login', { body: { username: 'alice', password: 'a new password' } })).status, 200);
    const stored = (await stack.stores.pg.pool.query(`SELECT password_hash FROM users WHERE username = 'alice'`)).rows[0].password_hash;
    assert.match(stored, /^scrypt\$32768\$8\$1\$/);
    assert.ok(!stored.includes('a new password'));
  });

  it('registers sellers', async () => {
    const res = await call(stack, 'POST', '/auth/register-seller', {
      body: { username: 'shopkeeper', email: 'shop@example.com', password: 'long enough', display_name: 'The Shop', country: 'NL' },
    });
    assert.equal(res.status, 201);
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie: res.cookie })).body.is_seller, true);
    assert.equal(
      (
        await call(stack, 'POST', '/auth/register-seller', {
          body: { username: 'shop2', email: 'shop2@example.com', password: 'long enough', country: 'Netherlands' },
        })
      ).status,
      400,
    );
  });
});

describe('account deletion', () => {
  it('needs the exact confirmation, can be cancelled, and only takes effect after 24 hours', async () => {
    const { cookie, body: registered } = await register(stack, 'leaver');
    const keyRes = await call(stack, 'POST', '/api/keys/', { cookie, body: { name: 'k' } });
    const confirm = { confirm: 'DELETE leaver' };
    assert.equal((await call(stack, 'POST', '/auth/account/delete-request', { cookie, body: { confirm: 'DELETE someone' } })).status, 400);
    const requested = await call(stack, 'POST', '/auth/account/delete-request', { cookie, body: confirm });
    assert.equal(requested.status, 200);
    assert.ok(Date.parse(requested.body.delete_after) - Date.now() > 23.9 * 3_600_000);
    const early = await call(stack, 'DELETE', '/auth/account', { cookie, body: confirm });
    assert.deepEqual([early.status, /24 hours/.test(early.body.detail)], [400, true]);
    assert.equal((await call(stack, 'POST', '/auth/account/delete-cancel', { cookie })).status, 200);
    assert.equal((await call(stack, 'DELETE', '/auth/account', { cookie, body: confirm })).status, 400, 'cancelled: nothing to delete');
    await call(stack, 'POST', '/auth/account/delete-request', { cookie, body: confirm });
    // The cooldown passes (the request moved a day back, as the clock would).
    await stack.stores.pg.pool.query(`UPDATE users SET delete_requested_at = now() - interval '25 hours' WHERE username = 'leaver'`);
    assert.equal((await call(stack, 'DELETE', '/auth/account', { cookie, body: confirm })).status, 200);
    assert.equal((await call(stack, 'GET', '/auth/me', { cookie })).status, 401);
    assert.equal(
      (await call(stack, 'GET', '/api/v2/stats', { headers: { 'X-API-Key': keyRes.body.key } })).status,
      401,
      'its keys are gone',
    );
    assert.equal(
      (await call(stack, 'POST', '/auth/login', { body: { username: 'leaver', password: 'correct horse battery' } })).status,
      401,
    );
    const row = (await stack.stores.pg.pool.query(`SELECT username, email, password_hash FROM users WHERE id = $1`, [registered.user_id]))
      .rows[0];
    assert.match(row.username, /^deleted-\d+$/);
    assert.deepEqual([row.email, row.password_hash], [null, null]);
    assert.equal((await register(stack, 'leaver')).status, 201, 'the name is free again');
  });
});

describe('API keys', () => {
  it('shows the full key once, keeps only its digest, caps the count by tier, and stops a revoked key', async () => {
    const { cookie } = await register(stack, 'developer');
    const created = await call(stack, 'POST', '/api/keys/', { cookie, body: { name: 'server' } });
    assert.equal(created.status, 201);
    const key: string = created.body.key;
    assert.match(key, /^holo_[\w-]{43}$/);
    assert.deepEqual(
      [created.body.tier, created.body.daily_limit, created.body.rate_limit_per_minute, created.body.prefix],
      ['free', 500, 30, key.slice(0, 12)],
    );
    const list = await call(stack, 'GET', '/api/keys/', { cookie });
    assert.equal(list.body.items.length, 1);
    assert.ok(!JSON.stringify(list.body).includes(key), 'never shown again');
    const stored = (await stack.stores.pg.pool.query(`SELECT row_to_json(k)::text AS row FROM api_keys k`)).rows.map((r) => r.row).join();
    assert.ok(!stored.includes(key.slice(5)), 'no column holds the secret');
    // Free tier: one key.
    const second = await call(stack, 'POST', '/api/keys/', { cookie, body: { name: 'second' } });
    assert.deepEqual([second.status, /allows 1 API key/.test(second.body.detail)], [403, true]);
    assert.equal(
      (await call(stack, 'POST', '/api/keys/', { cookie, body: { name: 'x', tier: 'pro' } })).status,
      403,
      'not above the subscription',
    );
    // On its own tier or a lower one, never one that grants more.
    const shop = await register(stack, 'shop-keys');
    await stack.stores.pg.pool.query(`UPDATE users SET tier = 'shop_pro' WHERE username = 'shop-keys'`);
    const tierOf = async (tier: string) => {
      const r = await call(stack, 'POST', '/api/keys/', { cookie: shop.cookie, body: { name: `on-${tier}`, tier } });
      return r.status === 201 ? [r.status, r.body.tier, r.body.rate_limit_per_minute] : [r.status];
    };
    assert.deepEqual(await tierOf('starter'), [201, 'starter', 60]);
    assert.deepEqual(await tierOf('shop_basic'), [201, 'shop_basic', 500]);
    assert.deepEqual(await tierOf('shop_pro'), [201, 'shop_pro', 1000]);
    assert.deepEqual(await tierOf('enterprise'), [403]);
    assert.deepEqual(await tierOf('business'), [403], 'legacy Business (1,000 a minute) only from a Business account');
    // Concurrent creations cannot both slip under the cap.
    const racer = await register(stack, 'racing-keys');
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(stack, 'POST', '/api/keys/', { cookie: racer.cookie, body: { name: `r${i}` } })),
    );
    assert.deepEqual(
      raced.map((r) => r.status).sort((a, b) => a - b),
      [201, 403, 403, 403, 403, 403],
    );
    // Every way of presenting it works.
    for (const headers of [{ Authorization: `Bearer ${key}` }, { 'X-API-Key': key }] as Record<string, string>[])
      assert.equal((await call(stack, 'GET', '/auth/me', { headers })).body.username, 'developer');
    assert.equal((await call(stack, 'GET', `/auth/me?api_key=${key}`)).status, 200);
    const byName = await call(stack, 'GET', '/api/keys/by-name?name=server', { headers: { 'X-API-Key': key } });
    assert.equal(byName.body.id, created.body.id);
    assert.ok(byName.body.calls_today >= 3, 'calls are counted');
    // Another user cannot revoke it.
    const other = await register(stack, 'intruder');
    assert.equal((await call(stack, 'DELETE', `/api/keys/${created.body.id}`, { cookie: other.cookie })).status, 404);
    assert.equal((await call(stack, 'DELETE', `/api/keys/${created.body.id}`, { cookie })).status, 200);
    assert.equal((await call(stack, 'GET', '/auth/me', { headers: { 'X-API-Key': key } })).status, 401);
    assert.equal((await call(stack, 'GET', '/api/keys/', { headers: { 'X-API-Key': 'holo_forged' } })).status, 401);
    assert.equal((await call(stack, 'GET', '/api/keys/')).status, 401);
  });

  it("shows the caller's own key: the one it called with, or a session's newest usable key", async () => {
    const dev = await register(stack, 'keyholder');
    assert.equal((await call(stack, 'GET', '/api/developer/key', { cookie: dev.cookie })).status, 404, 'no key yet');
    await stack.stores.pg.pool.query(`UPDATE users SET tier = 'pro' WHERE username = 'keyholder'`);
    const first = (await call(stack, 'POST', '/api/keys/', { cookie: dev.cookie, body: { name: 'first' } })).body;
    const second = (await call(stack, 'POST', '/api/keys/', { cookie: dev.cookie, body: { name: 'second' } })).body;
    const viaSession = await call(stack, 'GET', '/api/developer/key', { cookie: dev.cookie });
    assert.deepEqual([viaSession.status, viaSession.body.id, viaSession.body.name], [200, second.id, 'second']);
    const viaKey = await call(stack, 'GET', '/api/developer/key', { headers: { 'X-API-Key': first.key } });
    assert.deepEqual([viaKey.body.id, viaKey.body.rate_limit_per_minute], [first.id, 120]);
    assert.ok(!JSON.stringify(viaKey.body).includes(first.key.slice(12)), 'never the secret');
    assert.equal((await call(stack, 'GET', '/api/developer/key')).status, 401);
  });

  it("lets an admin change any key's tier, limits and active flag, at once, and nobody else", async () => {
    const owner = await register(stack, 'managed');
    const created = (await call(stack, 'POST', '/api/keys/', { cookie: owner.cookie, body: { name: 'managed' } })).body;
    const headers = { 'X-API-Key': created.key };
    const admin = await register(stack, 'keyadmin');
    await stack.stores.pg.pool.query(`UPDATE users SET is_admin = true WHERE username = 'keyadmin'`);
    const patch = (body: unknown, cookie = admin.cookie, id = created.id) =>
      call(stack, 'PATCH', `/admin/api-keys/${id}`, { cookie, body });
    const limitOf = async () => (await call(stack, 'GET', '/auth/me', { headers })).headers.get('x-ratelimit-limit');
    assert.equal(await limitOf(), '30');

    // Tier and an own per-minute limit: the next call already meets them (the key cache was dropped).
    const raised = await patch({ tier: 'shop_pro', rate_limit_per_minute: 7 });
    assert.equal(raised.status, 200);
    assert.deepEqual(
      [raised.body.id, raised.body.tier, raised.body.rate_limit_per_minute, raised.body.daily_limit, raised.body.is_active],
      [created.id, 'shop_pro', 7, 500_000, true],
    );
    assert.equal(await limitOf(), '7');
    assert.equal((await call(stack, 'GET', '/api/webhooks', { headers })).status, 200, 'business+ through the new tier');
    // null hands the limit back to the tier; an empty change changes nothing.
    assert.equal((await patch({ rate_limit_per_minute: null, daily_limit: 1234 })).body.rate_limit_per_minute, 1000);
    assert.equal(await limitOf(), '1000');
    const unchanged = await patch({});
    assert.deepEqual([unchanged.body.tier, unchanged.body.daily_limit], ['shop_pro', 1234]);

    // Suspended: refused with 401 until reactivated; the owner still sees it, inactive.
    assert.equal((await patch({ is_active: false })).body.is_active, false);
    assert.equal((await call(stack, 'GET', '/auth/me', { headers })).status, 401);
    assert.equal((await call(stack, 'GET', '/api/keys/', { cookie: owner.cookie })).body.items[0]!.is_active, false);
    assert.equal((await patch({ is_active: true })).status, 200);
    assert.equal((await call(stack, 'GET', '/auth/me', { headers })).status, 200);

    // Bad input changes nothing; an unknown or revoked key is 404; only admins may.
    for (const [body, loc] of [
      [{ tier: 'gold' }, ['body', 'tier']],
      [{ daily_limit: 0 }, ['body', 'daily_limit']],
      [{ rate_limit_per_minute: 1.5 }, ['body', 'rate_limit_per_minute']],
      [{ is_active: 'no' }, ['body', 'is_active']],
      [{ owner: 'me' }, ['body', 'owner']],
    ] as const) {
      const res = await patch(body);
      assert.deepEqual([res.status, res.body.detail[0].loc], [422, loc], JSON.stringify(body));
    }
    assert.equal((await call(stack, 'GET', '/api/keys/', { cookie: owner.cookie })).body.items[0]!.tier, 'shop_pro');
    assert.equal((await patch({ is_active: false }, admin.cookie, 2147483647)).status, 404);
    assert.equal((await patch({ tier: 'unlimited' }, owner.cookie)).status, 403, 'the owner is not an admin');
    assert.equal((await call(stack, 'PATCH', `/admin/api-keys/${created.id}`, { body: { tier: 'unlimited' } })).status, 401);
    assert.equal((await call(stack, 'DELETE', `/api/keys/${created.id}`, { cookie: owner.cookie })).status, 200);
    assert.equal((await patch({ is_active: true })).status, 404, 'a revoked key stays revoked');
    assert.equal((await call(stack, 'GET', '/auth/me', { headers })).status, 401);
  });
});

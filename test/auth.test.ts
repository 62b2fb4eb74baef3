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
});

// The mobile apps' version manifest: what an app asks at launch, and what an operator publishes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { call } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let admin: KeyedAccount;
let user: KeyedAccount;
before(async () => {
  stack = await startStack({ demo: 'none' });
  admin = await accountWithKey(stack, 'release-manager', 'free', { admin: true });
  user = await accountWithKey(stack, 'app-user', 'pro');
});
after(async () => {
  await stack?.close();
});

const publish = (body: unknown, headers = admin.headers) => call(stack, 'POST', '/api/admin/app/version', { headers, body });

describe('app version manifest', () => {
  it('answers 404 before the first release, then the highest version with update advice', async () => {
    const none = await call(stack, 'GET', '/api/app/latest?platform=ios');
    assert.deepEqual([none.status, none.body.detail], [404, 'No ios version is published yet']);

    const first = await publish({ platform: 'ios', version: '1.9.0', release_notes: 'First', download_url: 'https://apps.example/holo' });
    assert.equal(first.status, 201);
    assert.deepEqual(
      [first.body.latest_version, first.body.min_supported_version, first.body.download_url, first.body.update_available],
      ['1.9.0', '1.9.0', 'https://apps.example/holo', null],
      'the first release is its own minimum',
    );
    // 1.10.0 is above 1.9.0 (numeric parts, not text order); the minimum carries over unless given.
    assert.equal((await publish({ platform: 'ios', version: '1.10.0' })).body.min_supported_version, '1.9.0');
    assert.equal((await publish({ platform: 'ios', version: '2.0.0', min_supported_version: '1.10.0' })).status, 201);

    const latest = await call(stack, 'GET', '/api/app/latest?platform=ios&current_version=1.9.5');
    assert.equal(latest.status, 200);
    assert.equal(latest.headers.get('cache-control'), 'public, max-age=60');
    assert.deepEqual(
      [latest.body.latest_version, latest.body.min_supported_version, latest.body.update_available, latest.body.update_required],
      ['2.0.0', '1.10.0', true, true],
    );
    const current = await call(stack, 'GET', '/api/app/latest?platform=ios&current_version=2.0.0', { headers: user.headers });
    assert.deepEqual([current.body.update_available, current.body.update_required], [false, false]);
    assert.match(current.body.released_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal((await call(stack, 'GET', '/api/app/latest?platform=android')).status, 404, 'platforms are separate');
  });

  it('refuses a version that is not above the latest with 409, and exactly one of two racing publishers', async () => {
    await publish({ platform: 'android', version: '3.1.0' });
    for (const version of ['3.1.0', '3.0.9', '2.99.99']) {
      const res = await publish({ platform: 'android', version });
      assert.equal(res.status, 409, version);
      assert.match(res.body.detail, /not above the latest published version \(3\.1\.0\)/);
    }
    const raced = await Promise.all(Array.from({ length: 6 }, () => publish({ platform: 'android', version: '3.2.0' })));
    assert.deepEqual(
      raced.map((r) => r.status).sort((a, b) => a - b),
      [201, 409, 409, 409, 409, 409],
    );
    assert.equal((await call(stack, 'GET', '/api/app/latest?platform=android')).body.latest_version, '3.2.0');
  });

  it('refuses bad input in the 422 shape and changes nothing; only admins publish', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ platform: 'windows', version: '9.0.0' }, ['body', 'platform']],
      [{ platform: 'android', version: '9.0' }, ['body', 'version']],
      [{ platform: 'android', version: '9.0.0-beta' }, ['body', 'version']],
      [{ platform: 'android', version: '9.0.0', min_supported_version: '9.0.1' }, ['body', 'min_supported_version']],
      [{ platform: 'android', version: '9.0.0', download_url: 'http://insecure.example' }, ['body', 'download_url']],
      [{ platform: 'android', version: '9.0.0', release_notes: 'x'.repeat(2001) }, ['body', 'release_notes']],
      [{ platform: 'android' }, ['body', 'version']],
    ];
    for (const [body, loc] of cases) {
      const res = await publish(body);
      assert.deepEqual([res.status, res.body.detail[0].loc], [422, loc], JSON.stringify(body).slice(0, 80));
    }
    assert.equal((await publish({ platform: 'android', version: '9.0.0' }, user.headers)).status, 403);
    assert.equal((await call(stack, 'POST', '/api/admin/app/version', { body: { platform: 'android', version: '9.0.0' } })).status, 401);
    assert.equal((await call(stack, 'GET', '/api/app/latest?platform=android')).body.latest_version, '3.2.0', 'nothing changed');
    for (const query of ['', '?platform=web', '?platform=ios&current_version=latest'])
      assert.equal((await call(stack, 'GET', `/api/app/latest${query}`)).status, 422, query);
  });
});

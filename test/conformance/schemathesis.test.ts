// /openapi.json against an outside client: schemathesis, the OpenAPI fuzzer, runs every check
// against a live stack as each kind of caller (npm run test:conformance). Not yet part of npm test:
// it still finds disagreements (issue 12 lists them; the README's "Conformance" says which), and
// joins the suite once it passes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey } from '../support/accounts.js';
import { call } from '../support/http.js';
import { fuzz } from '../support/schemathesis.js';
import { startStack, type Stack } from '../support/stack.js';

// The WebSocket stream is not an HTTP operation OpenAPI can describe: a plain GET is refused with
// 426 by design (stream.test.ts covers it).
const EXCLUDED = ['/api/v1/stream'];
const SEED = 20261123;
const EXAMPLES = 8;

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const sessionOf = async (username: string, admin = false) => {
  const account = await accountWithKey(stack, username, 'pro', { admin });
  const login = await call(stack, 'POST', '/auth/login', { body: { username, password: 'long enough password' } });
  assert.equal(login.status, 200);
  return { cookie: login.cookie!, key: account.key };
};

async function expectConformance(who: string, headers: Record<string, string>) {
  const result = await fuzz(stack.url, { headers, maxExamples: EXAMPLES, seed: SEED, excludePaths: EXCLUDED });
  assert.equal(result.code, 0, `schemathesis as ${who} found disagreements:\n${result.output.slice(-20_000)}`);
}

describe('conformance to /openapi.json (schemathesis)', () => {
  it('holds for anonymous callers', async () => {
    await expectConformance('anonymous', {});
  });

  it('holds with an API key', async () => {
    const { key } = await sessionOf('fuzzkey');
    await expectConformance('an API key', { Authorization: `Bearer ${key}` });
  });

  it('holds for a signed-in user', async () => {
    const { cookie } = await sessionOf('fuzzuser');
    await expectConformance('a session', { Cookie: cookie });
  });

  it('holds for an administrator', async () => {
    const { cookie } = await sessionOf('fuzzadmin', true);
    await expectConformance('an administrator', { Cookie: cookie });
  });
});

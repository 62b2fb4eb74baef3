// /openapi.json against schemathesis as signed-in callers: a user and an administrator
// (test/support/conformance.ts; anonymous callers and API keys are in conformance.test.ts).
import { describe, it } from 'node:test';
import { conformanceStack } from './support/conformance.js';

const { sessionOf, expectConformance } = conformanceStack();

describe('conformance to /openapi.json for signed-in callers (schemathesis)', () => {
  it('holds for a signed-in user', async () => {
    const { session } = await sessionOf('fuzzuser');
    await expectConformance('a session', { sessionCookie: { api_key: session } });
  });

  it('holds for an administrator', async () => {
    const { session } = await sessionOf('fuzzadmin', true);
    await expectConformance('an administrator', { sessionCookie: { api_key: session } });
  });
});

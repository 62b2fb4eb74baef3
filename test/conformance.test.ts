// /openapi.json against schemathesis as callers without an account: anonymous, and with an API key
// (test/support/conformance.ts; signed-in callers are in conformance-accounts.test.ts).
import { describe, it } from 'node:test';
import { conformanceStack } from './support/conformance.js';

const { expectConformance } = conformanceStack();

describe('conformance to /openapi.json (schemathesis)', () => {
  it('holds for anonymous callers', async () => {
    await expectConformance('anonymous');
  });

  it('holds with an API key', async () => {
    await expectConformance('an API key');
  });
});

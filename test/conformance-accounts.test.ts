// /openapi.json against schemathesis as signed-in callers: a user and an administrator
// (test/support/conformance.ts; anonymous callers and API keys are in conformance.test.ts).
import { describe, it } from 'node:test';
import { conformanceStack } from './support/conformance.js';

const { expectConformance } = conformanceStack();

describe('conformance to /openapi.json for signed-in callers (schemathesis)', () => {
  it('holds for a signed-in user', async () => {
    await expectConformance('a session');
  });

  it('holds for an administrator', async () => {
    await expectConformance('an administrator');
  });
});

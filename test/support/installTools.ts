// The tools the suite's stacks and checks start (the Temporal CLI, stripe-mock, schemathesis),
// installed one after the other before any test runs: a first build takes minutes on a fresh
// machine, and inside the tests two files installing at once would share the CPU and wait on it
// within their own timeouts (and two conformance files would build one virtual environment twice).
import { goInstalled } from '../../sql/runtime/toolCache.js';
import { createLogger } from '../../sql/runtime/log.js';
import { STRIPE_MOCK } from '../../sql/external/stripe.js';
import { TEMPORAL_CLI } from '../../workflows/temporalServer.js';
import { schemathesisBin } from './schemathesis.js';

const log = createLogger('info');
for (const [module, binary] of [
  [TEMPORAL_CLI, 'temporal'],
  [STRIPE_MOCK, 'stripe-mock'],
] as const)
  log.info(`${binary}: ready`, { path: await goInstalled(module, binary, log) });
log.info('schemathesis: ready', { path: await schemathesisBin() });

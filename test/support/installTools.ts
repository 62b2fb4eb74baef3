// The Go tools the suite's stacks start (the Temporal CLI, stripe-mock), installed one after the
// other before any test runs: a first build takes minutes on a fresh machine, and inside the tests
// two files building at once would share the CPU and wait on it within their own timeouts.
import { goInstalled } from '../../sql/runtime/toolCache.js';
import { createLogger } from '../../sql/runtime/log.js';
import { STRIPE_MOCK } from '../../sql/stores/payments.js';
import { TEMPORAL_CLI } from '../../workflows/temporalServer.js';

const log = createLogger('info');
for (const [module, binary] of [
  [TEMPORAL_CLI, 'temporal'],
  [STRIPE_MOCK, 'stripe-mock'],
] as const)
  log.info(`${binary}: ready`, { path: await goInstalled(module, binary, log) });

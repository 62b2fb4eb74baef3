// Workflow code only orchestrates: deterministic, no I/O, no clocks; activities do the work.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities, FxRatesResult } from './activities.js';

const { loadEcbRates } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/** Daily euro reference rates into ClickHouse, for region conversion. */
export async function fxRates(input: { location: string; batchId: string }): Promise<FxRatesResult> {
  return loadEcbRates(input);
}

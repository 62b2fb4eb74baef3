// Activities: all I/O of the workflows, built from injected dependencies and calling ingest/.
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { fetchFeed } from '../ingest/fetchFeed.js';
import { ingestFeed, UnknownFeedError, type IngestDeps, type IngestInput, type IngestSummary } from '../ingest/ingestFeed.js';
import { loadFxRates } from '../ingest/load/fxRates.js';
import { parseEcbRates } from '../ingest/sources/ecbRates.js';
import { FeedFormatError } from '../ingest/sources/types.js';

export type ActivityDeps = IngestDeps;

export type FxRatesResult = { fetched: number; loaded: number; rejected: number; days: string[] };

export function createActivities(deps: ActivityDeps) {
  return {
    /** One source's feed for one game and day, end to end; heartbeats name the current step. */
    async ingestPriceFeed(input: IngestInput): Promise<IngestSummary> {
      try {
        return await ingestFeed(deps, input, (step) => heartbeat(step));
      } catch (err) {
        if (err instanceof FeedFormatError || err instanceof UnknownFeedError) throw ApplicationFailure.nonRetryable(err.message, err.name);
        throw err;
      }
    },

    /** Reads an ECB reference-rate feed and loads it; a malformed feed fails without retries. */
    async loadEcbRates(input: { location: string; batchId: string }): Promise<FxRatesResult> {
      heartbeat('fetching');
      const feed = await fetchFeed(input.location, { timeoutMs: 30_000 });
      if (feed.status !== 'fresh') return { fetched: 0, loaded: 0, rejected: 0, days: [] };
      let parsed;
      try {
        parsed = parseEcbRates(feed.body);
      } catch (err) {
        if (err instanceof FeedFormatError) throw ApplicationFailure.nonRetryable(err.message, 'FeedFormatError');
        throw err;
      }
      heartbeat('loading');
      const loaded = await loadFxRates(deps.ch, parsed.rates, { id: input.batchId, ingestedAt: new Date(), source: 'ecb' });
      return { fetched: parsed.rates.length + parsed.rejected.length, loaded, rejected: parsed.rejected.length, days: [...new Set(parsed.rates.map((r) => r.day))].sort() };
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;

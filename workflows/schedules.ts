// Temporal Schedules instead of in-process cron: scrapeAll every 6 hours, fxRates,
// catalogueSync, the alert digest, the recognition index and the bulk export files daily, listing
// expiry hourly.
// Created idempotently at start: an existing schedule is updated to the current definition.
import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';
import { TASK_QUEUE } from './shared.js';

export const SCHEDULE_IDS = {
  scrapeAll: 'holo-scrape-all',
  fxRates: 'holo-fx-rates',
  catalogueSync: 'holo-catalogue-sync',
  dailyDigest: 'holo-daily-digest',
  listingExpiry: 'holo-listing-expiry',
  recognitionIndex: 'holo-recognition-index',
  bulkExport: 'holo-bulk-export',
} as const;

export async function ensureSchedules(client: Client, opts: { pairs: { source: string; game: string }[] }): Promise<string[]> {
  const definitions: ScheduleOptions[] = [
    {
      scheduleId: SCHEDULE_IDS.scrapeAll,
      spec: { intervals: [{ every: '6h' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'scrapeAll',
        taskQueue: TASK_QUEUE,
        args: [{ pairs: opts.pairs, concurrency: 2 }],
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
    },
    {
      scheduleId: SCHEDULE_IDS.fxRates,
      spec: { intervals: [{ every: '24h', offset: '16h' }] }, // after the ECB's ~16:00 CET publication
      action: {
        type: 'startWorkflow',
        workflowType: 'fxRates',
        taskQueue: TASK_QUEUE,
        args: [{}], // the daily file; the 90-day one only to fill a gap
      },
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
    },
    {
      scheduleId: SCHEDULE_IDS.catalogueSync,
      spec: { intervals: [{ every: '24h', offset: '3h' }] }, // new sets before the morning scrapes
      action: { type: 'startWorkflow', workflowType: 'catalogueSync', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
    },
    {
      scheduleId: SCHEDULE_IDS.dailyDigest,
      spec: { intervals: [{ every: '24h', offset: '8h' }] }, // 08:00 UTC, after the night's scrapes
      action: { type: 'startWorkflow', workflowType: 'dailyDigest', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '6 hours' },
    },
    {
      scheduleId: SCHEDULE_IDS.listingExpiry,
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'expireListings', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
    },
    {
      // Pictures fetched since (images:fetch starts a run itself; this catches any other way in).
      scheduleId: SCHEDULE_IDS.recognitionIndex,
      spec: { intervals: [{ every: '24h', offset: '4h' }] },
      action: { type: 'startWorkflow', workflowType: 'recognitionIndex', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
    },
    {
      scheduleId: SCHEDULE_IDS.bulkExport,
      spec: { intervals: [{ every: '24h', offset: '5h' }] }, // after the catalogue sync and the night's scrapes
      action: { type: 'startWorkflow', workflowType: 'bulkExport', taskQueue: TASK_QUEUE, args: [] },
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
    },
  ];
  for (const def of definitions) {
    try {
      await client.schedule.create(def);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(def.scheduleId).update((previous) => ({
        ...previous,
        spec: def.spec,
        action: def.action as typeof previous.action,
        policies: { ...previous.policies, ...def.policies },
      }));
    }
  }
  return definitions.map((d) => d.scheduleId);
}

// The ECB's euro reference rates (www.ecb.europa.eu/stats/policy_and_exchange_rates/
// euro_reference_exchange_rates: "usually updated around 16:00 CET on every working day, except on
// TARGET closing days"): the current day's rates (eurofxref-daily.xml, ~1.5 kB) and the last 90
// days (eurofxref-hist-90d.xml, ~100 kB). A scheduled run reads the daily file and only backfills
// from the 90-day one when Holo has no ECB rate yet or lacks a working day before the daily file's
// (a missed run, a stopped service; a TARGET holiday also reads it once, which is harmless: the
// load is idempotent). Small XML documents, read whole; dated by each <Cube time>.
import { parseEcbRates } from '../sources/ecbRates.js';
import type { Upstream } from './http.js';

export const ECB_DOCUMENTS = {
  'hist-90d': '/stats/eurofxref/eurofxref-hist-90d.xml',
  daily: '/stats/eurofxref/eurofxref-daily.xml',
} as const;
export type EcbDocument = keyof typeof ECB_DOCUMENTS;

export async function readEcbRates(upstream: Upstream, document: EcbDocument): Promise<string> {
  const res = await upstream.fetch(ECB_DOCUMENTS[document], { headers: { Accept: 'application/xml' } });
  const chunks: Uint8Array[] = [];
  for await (const chunk of res.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether a working day (Monday to Friday) lies strictly between two ISO days. */
export function workingDayBetween(after: string, before: string): boolean {
  for (let t = Date.parse(`${after}T00:00:00Z`) + 86_400_000; t < Date.parse(`${before}T00:00:00Z`); t += 86_400_000) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return true;
  }
  return false;
}

export type EcbRead = { document: EcbDocument; parsed: ReturnType<typeof parseEcbRates> };

/**
 * A scheduled run's rates: the daily file, or the 90-day file when `newestStored` (the newest ECB
 * day Holo holds, null for none) leaves a working day missing before the daily file's day.
 */
export async function scheduledEcbRates(upstream: Upstream, newestStored: string | null): Promise<EcbRead> {
  const daily = parseEcbRates(await readEcbRates(upstream, 'daily'));
  const day = daily.rates
    .map((r) => r.day)
    .sort()
    .at(-1);
  if (newestStored && day && !workingDayBetween(newestStored, day)) return { document: 'daily', parsed: daily };
  return { document: 'hist-90d', parsed: parseEcbRates(await readEcbRates(upstream, 'hist-90d')) };
}

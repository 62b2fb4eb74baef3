// The ECB's euro reference rates (www.ecb.europa.eu/stats/eurofxref/): the last 90 days
// (eurofxref-hist-90d.xml) or the latest day (eurofxref-daily.xml), published around 16:00 CET on
// business days. Small XML documents, read whole; dated by each <Cube time>.
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

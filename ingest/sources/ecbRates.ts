// ECB euro foreign exchange reference rates (eurofxref-daily.xml / eurofxref-hist*.xml):
// <Cube time="YYYY-MM-DD"><Cube currency="USD" rate="1.0856"/>…</Cube>, units per 1 EUR.
import { XMLParser } from 'fast-xml-parser';
import { FeedFormatError } from './types.js';

export type FxRate = { day: string; currency: string; rate: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  isArray: (name) => name === 'Cube',
});

export function parseEcbRates(xml: string): { rates: FxRate[]; rejected: { ref: string; reason: string }[] } {
  let doc: { Envelope?: { Cube?: { Cube?: { time?: string; Cube?: { currency?: string; rate?: string }[] }[] }[] } };
  try {
    doc = parser.parse(xml, true);
  } catch (err) {
    throw new FeedFormatError(`ECB feed is not well-formed XML: ${(err as Error).message}`);
  }
  const days = doc.Envelope?.Cube?.[0]?.Cube;
  if (!Array.isArray(days)) throw new FeedFormatError('ECB feed has no <Cube time=…> elements');
  const rates: FxRate[] = [];
  const rejected: { ref: string; reason: string }[] = [];
  for (const d of days) {
    if (!d.time || !/^\d{4}-\d{2}-\d{2}$/.test(d.time)) {
      rejected.push({ ref: String(d.time), reason: 'day without a YYYY-MM-DD time' });
      continue;
    }
    for (const c of d.Cube ?? []) {
      const ref = `${d.time}/${c.currency}`;
      if (!c.currency || !/^[A-Z]{3}$/.test(c.currency)) rejected.push({ ref, reason: 'currency is not an ISO 4217 code' });
      else if (!c.rate || !/^\d+(\.\d+)?$/.test(String(c.rate)) || Number(c.rate) <= 0)
        rejected.push({ ref, reason: `bad rate ${JSON.stringify(c.rate)}` });
      else rates.push({ day: d.time, currency: c.currency, rate: String(c.rate) });
    }
  }
  return { rates, rejected };
}

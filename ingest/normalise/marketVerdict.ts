// The market verdict over several sources' medians of one card: the consensus price, which
// sources agree with it, the spread and the regions' bias. The card price endpoints compute it per
// request; the correlation workflow computes and keeps it for every card.

export type SourceMedian = { source: string; region: string; median: number; sample_size: number };

const round2 = (x: number) => Math.round(x * 100) / 100;

/** What each price source is, for people: the verdict's rows and the source list. */
export const SOURCE_LABELS: Record<string, string> = {
  tcgplayer: 'US marketplace',
  cardmarket: 'European marketplace',
  scryfall: 'Scryfall aggregate',
  pricecharting: 'Graded price guide',
  auction_sold: 'Auction sales',
  // The demo history's own sources in data directories loaded by earlier versions.
  us_market: 'US marketplace (history)',
  eu_market: 'European marketplace (history)',
  graded_guide: 'Graded price guide (history)',
  jp_market: 'Japanese marketplace',
};

/** The agreement band: a source agrees with the verdict when within ±15 % of it. */
export const AGREEMENT_BAND_PCT = 15;

/**
 * The market verdict: the weighted median of the sources' 30-day medians, each source weighted by
 * ln(1 + its daily values); a source agrees within ±15 %; confidence is the agreeing share of the
 * weight (high ≥ 0.75, medium ≥ 0.5, else low); spread is dearest over cheapest source; region bias
 * is how far EU sources sit above (+) or below (−) US sources, in percent.
 */
export function marketVerdict(sources: SourceMedian[]) {
  const weighted = sources.filter((s) => s.median > 0).map((s) => ({ ...s, weight: Math.log(1 + s.sample_size) }));
  if (weighted.length === 0) return null;
  const byPrice = [...weighted].sort((a, b) => a.median - b.median);
  const totalWeight = byPrice.reduce((n, s) => n + s.weight, 0);
  let acc = 0;
  const verdict = byPrice.find((s) => (acc += s.weight) >= totalWeight / 2)!.median;
  const rows = weighted.map((s) => {
    const delta = ((s.median - verdict) / verdict) * 100;
    return {
      source: s.source,
      label: SOURCE_LABELS[s.source] ?? s.source,
      median: round2(s.median),
      sample_size: s.sample_size,
      weight: round2(s.weight / totalWeight),
      agrees: Math.abs(delta) <= AGREEMENT_BAND_PCT,
      delta_pct: round2(delta),
    };
  });
  const agreeingWeight = rows.filter((r) => r.agrees).reduce((n, r) => n + r.weight, 0);
  const side = (region: string) => {
    const xs = weighted.filter((s) => s.region === region).map((s) => s.median);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  const [eu, us] = [side('eu'), side('us')];
  return {
    price: round2(verdict),
    currency: 'USD' as const,
    confidence: agreeingWeight >= 0.75 ? ('high' as const) : agreeingWeight >= 0.5 ? ('medium' as const) : ('low' as const),
    agreeing_sources: rows.filter((r) => r.agrees).length,
    considered_sources: rows.length,
    spread_pct: round2(((byPrice.at(-1)!.median - byPrice[0]!.median) / byPrice[0]!.median) * 100),
    region_bias: eu !== null && us !== null ? round2(((eu - us) / us) * 100) : null,
    sources: rows,
  };
}

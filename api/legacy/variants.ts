// Variant names of the legacy surface: one word for a finish and print run, as clients filter by
// them (foil, etched-foil, reverse-holo, 1st-edition, shadowless, prerelease, …).
const FINISH_NAMES: Record<string, string> = {
  normal: 'normal',
  holofoil: 'holofoil',
  'reverse-holofoil': 'reverse-holo',
  foil: 'foil',
  etched: 'etched-foil',
  'rainbow-foil': 'rainbow-foil',
  'cold-foil': 'cold-foil',
  'gold-cold-foil': 'gold-cold-foil',
};

/** "normal", "reverse-holo", "1st-edition", "1st-edition holofoil", "shadowless holofoil", … */
export function variantName(finish: string, printRun: string): string {
  const f = FINISH_NAMES[finish] ?? finish;
  if (printRun === 'unlimited') return f;
  return f === 'normal' ? printRun : `${printRun} ${f}`;
}

/**
 * Does a variant answer to a filter word? The word names a finish (foil matches every foil
 * finish), a print run, or one exact variant name.
 */
export function variantMatches(filter: string, finish: string, printRun: string): boolean {
  const name = variantName(finish, printRun);
  if (filter === name) return true;
  if (filter === printRun) return true;
  if (filter === 'foil') return finish !== 'normal' && finish !== 'reverse-holofoil';
  if (filter === 'holo') return finish === 'holofoil';
  return filter === (FINISH_NAMES[finish] ?? finish) && printRun === 'unlimited';
}

/** The foil status of a finish, as Scryfall-style filters name it: a holo rare's standard print is nonfoil. */
export function foilStatus(finish: string): 'nonfoil' | 'foil' | 'etched' {
  if (finish === 'etched') return 'etched';
  return finish === 'normal' || finish === 'holofoil' ? 'nonfoil' : 'foil';
}

// Deterministic market prices for the local feed server: a pure function of (product, series, day),
// so any day's feed can be served again byte for byte. Prices drift over the year, move in waves,
// spike now and then, and each source quotes its own bias and noise, so sources disagree.
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  h ^= h >>> 13;
  h = Math.imul(h, 2246822519);
  return (h ^ (h >>> 16)) >>> 0;
}

export const unit = (text: string) => hash(text) / 4294967296;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/** Typical USD price of a product from its rarity; deterministic spread around it. */
export function basePrice(product: string, rarity: string | null): number {
  const r = rarity ?? '';
  const level = /secret|hyper|special illustration|gold|fabled|enchanted|mythic|legendary/i.test(r)
    ? 60
    : /ultra|illustration|ex|gx|vmax|vstar|majestic|marvel|holo|super rare|rare/i.test(r)
      ? /holo|super rare|^rare$/i.test(r)
        ? 3
        : 15
      : /uncommon/i.test(r)
        ? 0.35
        : 0.15;
  return level * Math.exp((unit(`${product}|base`) - 0.5) * 2);
}

export function modelPrice(product: string, base: number, day: string): number {
  const t = dayNumber(day);
  const drift = (unit(`${product}|drift`) - 0.4) * 0.9 * ((t % 3650) / 365);
  const wave = 0.1 * Math.sin((2 * Math.PI * t) / (40 + 160 * unit(`${product}|wave`)));
  const spikeCentre = Math.floor(unit(`${product}|spike`) * 3650);
  const spike = unit(`${product}|spiky`) < 0.05 ? 0.6 * Math.exp(-(((t % 3650) - spikeCentre) ** 2) / 36) : 0;
  return base * Math.exp(drift + wave + spike);
}

/** What one source quotes for a series on a day: the model with the source's bias and noise. */
export function quote(product: string, series: string, source: string, base: number, day: string, factor = 1): number {
  const bias = 1 + (unit(`${product}|${source}|bias`) - 0.5) * 0.16;
  const noise = 1 + (unit(`${product}|${series}|${day}`) - 0.5) * 0.06;
  return Math.max(0.02, Math.round(modelPrice(product, base, day) * factor * bias * noise * 100) / 100);
}

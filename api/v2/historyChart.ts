// A card's price history as an SVG line chart people can embed (shop sites, bots, docs): one line
// per source in the region's currency, with value and date axes, a legend and a title. sharp turns
// the same SVG into a PNG.

/** A point of the JSON history (schemas/v2.ts HistoryPoint). */
export type HistoryPoint = { date: string; amount: number; source: string; price_type: string };

export type ChartInput = {
  title: string;
  currency: string;
  /** First and last day shown (YYYY-MM-DD). */
  from: string;
  to: string;
  points: HistoryPoint[];
  width: number;
  height: number;
  theme: 'light' | 'dark';
};

// Okabe–Ito: told apart with the common colour-vision deficiencies.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
const THEMES = {
  light: { background: '#ffffff', text: '#1f2328', muted: '#57606a', grid: '#d8dee4' },
  dark: { background: '#0d1117', text: '#e6edf3', muted: '#8d96a0', grid: '#30363d' },
};
// What a source reports as its market value, best first: one line per source.
const MARKET_TYPES = ['market', 'trend', 'raw_us', 'raw_eu', 'raw_jp', 'last_sold', 'avg', 'avg1', 'mid', 'low'];
const FONT = 'DejaVu Sans, Helvetica, Arial, sans-serif';
const DAY = 86_400_000;

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const round = (n: number) => Math.round(n * 10) / 10;

/** One series per source: its market-like price type, one point a day. */
export function seriesBySource(points: HistoryPoint[]): { label: string; points: { day: number; amount: number }[] }[] {
  const bySource = new Map<string, Map<string, HistoryPoint[]>>();
  for (const p of points) {
    const types = bySource.get(p.source) ?? new Map<string, HistoryPoint[]>();
    bySource.set(p.source, types);
    types.set(p.price_type, [...(types.get(p.price_type) ?? []), p]);
  }
  return [...bySource.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([source, types]) => {
      const rank = (t: string) => (MARKET_TYPES.includes(t) ? MARKET_TYPES.indexOf(t) : MARKET_TYPES.length);
      const type = [...types.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0]!;
      const points = types
        .get(type)!
        .map((p) => ({ day: Date.parse(`${p.date}T00:00:00Z`), amount: p.amount }))
        .sort((a, b) => a.day - b.day);
      return { label: type ? `${source} (${type.replaceAll('_', ' ')})` : source, points };
    });
}

/** Round steps (1, 2, 5 × 10^n) covering [min, max] in about `count` intervals. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (min === max) {
    const pad = Math.abs(min) * 0.1 || 1;
    min -= pad;
    max += pad;
  }
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toFixed(10)));
  return ticks;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function dayLabel(day: number, spanDays: number): string {
  const d = new Date(day);
  return spanDays > 400 ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}` : `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

function money(n: number, currency: string): string {
  const digits = Math.abs(n) >= 1000 || currency === 'JPY' ? 0 : 2;
  return `${n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

export function renderHistorySvg(input: ChartInput): string {
  const { width, height, currency } = input;
  const theme = THEMES[input.theme];
  const series = seriesBySource(input.points);
  const font = Math.max(10, Math.min(14, Math.round(width / 60)));
  const legendRows = Math.max(1, Math.ceil(series.length / Math.max(1, Math.floor((width - 80) / 220))));
  const plot = { left: font * 5.5, right: width - font, top: font * 3, bottom: height - font * (3 + legendRows * 1.5) };
  const from = Date.parse(`${input.from}T00:00:00Z`);
  const to = Date.parse(`${input.to}T00:00:00Z`);
  const spanDays = Math.max(1, (to - from) / DAY);
  const x = (day: number) => round(plot.left + ((day - from) / Math.max(DAY, to - from)) * (plot.right - plot.left));

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" font-size="${font}">`,
    `<title>${xml(input.title)}</title>`,
    `<rect width="100%" height="100%" fill="${theme.background}"/>`,
    `<text x="${plot.left}" y="${round(font * 1.8)}" fill="${theme.text}" font-weight="bold">${xml(input.title)}</text>`,
  ];
  const amounts = series.flatMap((s) => s.points.map((p) => p.amount));
  if (amounts.length === 0) {
    parts.push(
      `<text x="${width / 2}" y="${height / 2}" fill="${theme.muted}" text-anchor="middle">No prices in this range</text>`,
      '</svg>',
    );
    return parts.join('');
  }
  const ticks = niceTicks(Math.min(...amounts), Math.max(...amounts));
  const [low, high] = [ticks[0]!, ticks.at(-1)!];
  const y = (v: number) => round(plot.bottom - ((v - low) / (high - low || 1)) * (plot.bottom - plot.top));

  for (const t of ticks) {
    parts.push(
      `<line x1="${plot.left}" x2="${plot.right}" y1="${y(t)}" y2="${y(t)}" stroke="${theme.grid}" stroke-width="1"/>`,
      `<text x="${plot.left - font * 0.5}" y="${y(t) + font * 0.35}" fill="${theme.muted}" text-anchor="end">${xml(money(t, currency))}</text>`,
    );
  }
  parts.push(
    `<text x="${round(font * 0.9)}" y="${round((plot.top + plot.bottom) / 2)}" fill="${theme.muted}" text-anchor="middle" transform="rotate(-90 ${round(font * 0.9)} ${round((plot.top + plot.bottom) / 2)})">${xml(currency)}</text>`,
  );
  const dateTicks = Math.max(2, Math.min(8, Math.floor((plot.right - plot.left) / (font * 7))));
  for (let i = 0; i < dateTicks; i++) {
    const day = from + Math.round((i / (dateTicks - 1)) * spanDays) * DAY;
    const anchor = i === 0 ? 'start' : i === dateTicks - 1 ? 'end' : 'middle';
    parts.push(
      `<line x1="${x(day)}" x2="${x(day)}" y1="${plot.bottom}" y2="${plot.bottom + font * 0.4}" stroke="${theme.muted}"/>`,
      `<text x="${x(day)}" y="${round(plot.bottom + font * 1.5)}" fill="${theme.muted}" text-anchor="${anchor}">${xml(dayLabel(day, spanDays))}</text>`,
    );
  }
  parts.push(`<line x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="${theme.muted}"/>`);

  const perRow = Math.max(1, Math.floor((width - 80) / 220));
  series.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const path = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.day)},${y(p.amount)}`).join('');
    parts.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>`);
    if (s.points.length === 1) parts.push(`<circle cx="${x(s.points[0]!.day)}" cy="${y(s.points[0]!.amount)}" r="3" fill="${colour}"/>`);
    const lx = plot.left + (i % perRow) * 220;
    const ly = round(plot.bottom + font * (3 + Math.floor(i / perRow) * 1.5));
    parts.push(
      `<rect x="${lx}" y="${ly - font * 0.75}" width="${font * 1.4}" height="${font * 0.5}" fill="${colour}"/>`,
      `<text x="${lx + font * 1.9}" y="${ly}" fill="${theme.text}">${xml(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

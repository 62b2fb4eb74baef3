// The PostgreSQL twins of the analytics queries (sql/postgres/bench) must answer what ClickHouse
// answers before their speeds are compared: a faster wrong answer is no comparison. These read both
// answers into one shape and name the first difference.

/** One entry of a movers list: the card and the value the list is ordered by. */
export type MoverRow = { list: 'gainers' | 'losers' | 'most_volatile'; card_id: number; value: number };

type ChMoverTuple = [card_id: number, current: number, change_abs: number, change_pct: number, volatility: number];

/** ClickHouse's movers answer (one row of three arrays of tuples) as rows. */
export function chMoverRows(
  row: { gainers: ChMoverTuple[]; losers: ChMoverTuple[]; most_volatile: ChMoverTuple[] } | undefined,
): MoverRow[] {
  if (!row) return [];
  return [
    ...row.gainers.map((t) => ({ list: 'gainers' as const, card_id: Number(t[0]), value: Number(t[3]) })),
    ...row.losers.map((t) => ({ list: 'losers' as const, card_id: Number(t[0]), value: Number(t[3]) })),
    ...row.most_volatile.map((t) => ({ list: 'most_volatile' as const, card_id: Number(t[0]), value: Number(t[4]) })),
  ];
}

const LISTS = { gainer: 'gainers', loser: 'losers', volatile: 'most_volatile' } as const;

/** The PostgreSQL twin's rows (kind, card_id, value) as rows. */
export function pgMoverRows(rows: { kind: keyof typeof LISTS; card_id: number | string; value: number | string }[]): MoverRow[] {
  return rows.map((r) => ({ list: LISTS[r.kind], card_id: Number(r.card_id), value: Number(r.value) }));
}

/** Equal as the two engines compute them: float64 against exact numeric, to a millionth. */
export const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The first difference between two movers answers, or null. Each list must hold the same values in
 * the same order and the same cards for each value; cards tied on the value at a list's cut may
 * differ (either engine may keep either). An empty answer is a difference: it compares nothing.
 */
export function moversDifference(ch: MoverRow[], pg: MoverRow[]): string | null {
  if (ch.length === 0 || pg.length === 0) return `an empty answer (ClickHouse ${ch.length} rows, PostgreSQL ${pg.length})`;
  for (const list of ['gainers', 'losers', 'most_volatile'] as const) {
    const a = ch.filter((r) => r.list === list);
    const b = pg.filter((r) => r.list === list);
    if (a.length !== b.length) return `${list}: ${a.length} cards against ${b.length}`;
    for (let i = 0; i < a.length; i++) if (!close(a[i]!.value, b[i]!.value)) return `${list}[${i}]: ${a[i]!.value} against ${b[i]!.value}`;
    const last = a.at(-1)!.value;
    const ids = (rows: MoverRow[]) =>
      rows
        .filter((r) => !close(r.value, last))
        .map((r) => r.card_id)
        .sort((x, y) => x - y)
        .join(',');
    if (ids(a) !== ids(b)) return `${list}: cards ${ids(a)} against ${ids(b)}`;
  }
  return null;
}

/** One day of a variant's history. */
export type HistoryRow = { date: string; amount: string | number; source: string; price_type: string };

/** The first difference between two history answers, or null (amounts compared as numbers). */
export function historyDifference(ch: HistoryRow[], pg: HistoryRow[]): string | null {
  if (ch.length !== pg.length) return `${ch.length} rows against ${pg.length}`;
  for (let i = 0; i < ch.length; i++) {
    const [a, b] = [ch[i]!, pg[i]!];
    if (a.date !== b.date || a.source !== b.source || a.price_type !== b.price_type || !close(Number(a.amount), Number(b.amount)))
      return `row ${i}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
  }
  return null;
}

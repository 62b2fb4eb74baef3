// A collection as a CSV file (spec: "Collection CSV export", "Collection CSV import").
// Export: the spec's columns card_id, name, set, tcg, quantity, condition, variant, price_paid,
// current_value, then graded, grading_company, grade so that a file imports back whole; streamed
// by csv-stringify (RFC 4180 quoting of commas, quotes and line breaks), UTF-8.
// Import: a header row naming at least card_id, quantity, condition, price_paid (variant, graded,
// grading_company, grade optional; any other column, as an export's name or current_value, is
// ignored). Every bad row is reported with its line and reason and then nothing lands; otherwise
// all rows land in one transaction. Merge rule: rows naming the same card, variant, condition and
// grading are summed; each such entry's quantity and price paid are then SET to the file's, and
// entries the file does not name stay as they are. Importing the same file twice changes nothing.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, type InputIssue } from '../../schemas/errors.js';
import { CONDITIONS } from '../../schemas/marketplace.js';
import { COLLECTION_GRADERS, COLLECTION_LIMITS, gradingMisplaced } from '../../schemas/collection.js';
import { lockAccount } from '../../sql/alerts.js';
import * as q from '../../sql/collection.js';
import { csvIssue, readCsvRecords, refuseIssues } from '../http/csvFile.js';
import { collectionChanged, pickVariant, unknownVariant, valuedEntries, variantsByCard, type EntryDeps } from './entries.js';
import { presentEntry } from './entriesPresenter.js';

export const COLLECTION_CSV_MAX_BYTES = 5 * 1024 * 1024;
const EXPORT_COLUMNS = [
  'card_id',
  'name',
  'set',
  'tcg',
  'quantity',
  'condition',
  'variant',
  'price_paid',
  'current_value',
  'graded',
  'grading_company',
  'grade',
] as const;
const REQUIRED = ['card_id', 'quantity', 'condition', 'price_paid'] as const;

/** The whole collection as CSV, newest entry first, written as it streams out. */
export async function exportCollection(db: Db, userId: number): Promise<Readable> {
  const ids = (await q.collectionIdsOf(db, userId)).map((r) => r.id);
  const rows = ids.length ? await valuedEntries(db, ids) : [];
  const records = rows.map((row) => {
    const e = presentEntry(row);
    return [
      e.card_id,
      e.card_name,
      e.set_name,
      e.tcg_slug,
      e.quantity,
      e.condition,
      e.variant,
      e.price_paid ?? '',
      e.current_value ?? '',
      e.graded,
      e.grading_company ?? '',
      e.grade ?? '',
    ];
  });
  return Readable.from(records).pipe(stringify({ header: true, columns: [...EXPORT_COLUMNS], cast: { boolean: (b) => String(b) } }));
}

type ImportRow = {
  line: number;
  card_id: number;
  variant?: string;
  quantity: number;
  condition: (typeof CONDITIONS)[number];
  price_paid: number | null;
  graded: boolean;
  grading_company: (typeof COLLECTION_GRADERS)[number] | null;
  grade: number | null;
};

function readRows(file: Buffer): { rows: ImportRow[]; issues: InputIssue[] } {
  const records = readCsvRecords(file, { required: REQUIRED, maxRows: COLLECTION_LIMITS.maxEntries, what: 'rows' });
  const rows: ImportRow[] = [];
  const issues: InputIssue[] = [];
  for (const { line, fields: f } of records) {
    const problems: string[] = [];
    const cardId = Number(f.card_id);
    if (!/^\d{1,9}$/.test(f.card_id ?? '') || cardId < 1) problems.push(`card_id "${f.card_id}" is not a card id`);
    const quantity = Number(f.quantity);
    if (!/^\d{1,6}$/.test(f.quantity ?? '') || quantity < 1 || quantity > COLLECTION_LIMITS.maxQuantity)
      problems.push(`quantity "${f.quantity}" is not a whole number from 1 to ${COLLECTION_LIMITS.maxQuantity}`);
    const condition = (f.condition || 'NM').toUpperCase() as ImportRow['condition'];
    if (!CONDITIONS.includes(condition)) problems.push(`condition "${f.condition}" is none of ${CONDITIONS.join(', ')}`);
    const paid = f.price_paid === '' ? null : Number(f.price_paid);
    if (paid !== null && (!/^\d{1,9}(\.\d{1,2})?$/.test(f.price_paid ?? '') || paid > 1e9))
      problems.push(`price_paid "${f.price_paid}" is not an amount in USD`);
    const graded = /^(true|1|yes)$/i.test(f.graded ?? '');
    if (f.graded && !/^(true|false|1|0|yes|no)$/i.test(f.graded)) problems.push(`graded "${f.graded}" is not true or false`);
    const company = f.grading_company ? (f.grading_company.toUpperCase() as ImportRow['grading_company']) : null;
    if (company && !COLLECTION_GRADERS.includes(company))
      problems.push(`grading_company "${f.grading_company}" is none of ${COLLECTION_GRADERS.join(', ')}`);
    const grade = f.grade ? Number(f.grade) : null;
    if (grade !== null && (!(grade >= 1 && grade <= 10) || (grade * 2) % 1 !== 0))
      problems.push(`grade "${f.grade}" is not 1 to 10 in halves`);
    if (gradingMisplaced({ graded, grading_company: company, grade }))
      problems.push('grading_company and grade belong to a graded card: graded must be true');
    if (problems.length) issues.push(csvIssue(line, problems.join('; ')));
    else
      rows.push({
        line,
        card_id: cardId,
        variant: f.variant || undefined,
        quantity,
        condition,
        price_paid: paid,
        graded,
        grading_company: company,
        grade,
      });
  }
  return { rows, issues };
}

export async function importCollection(
  deps: EntryDeps,
  userId: number,
  file: Buffer,
): Promise<{ ok: true; rows: number; entries: number }> {
  const { rows, issues } = readRows(file);
  const byCard = await variantsByCard(
    deps.db,
    rows.map((r) => r.card_id),
  );
  const entries = new Map<string, ImportRow & { variant_id: number }>();
  for (const r of rows) {
    const own = byCard.get(r.card_id);
    if (!own) {
      issues.push(csvIssue(r.line, `no card has id ${r.card_id}`));
      continue;
    }
    const variant = pickVariant(own, r.variant);
    if (!variant) {
      issues.push(csvIssue(r.line, unknownVariant(r.card_id, r.variant, own)));
      continue;
    }
    const key = [r.card_id, variant.id, r.condition, r.graded, r.grading_company, r.grade].join('|');
    const same = entries.get(key);
    if (same) {
      same.quantity = Math.min(same.quantity + r.quantity, COLLECTION_LIMITS.maxQuantity);
      same.price_paid = r.price_paid ?? same.price_paid;
    } else entries.set(key, { ...r, variant_id: variant.id });
  }
  refuseIssues(issues);
  const list = [...entries.values()];
  const written = await deps.db.transaction(async (tx) => {
    // Imports and adds of one account wait for each other, so the cap counted below holds.
    await lockAccount(tx, userId);
    const [done] = await q.importEntries(
      tx,
      userId,
      list.map((e) => e.card_id),
      list.map((e) => e.variant_id),
      list.map((e) => e.quantity),
      list.map((e) => e.condition),
      list.map((e) => e.price_paid),
      list.map((e) => e.graded),
      list.map((e) => e.grading_company),
      list.map((e) => e.grade),
    );
    const [counted] = await q.countCollection(tx, userId, null);
    if (counted!.n > COLLECTION_LIMITS.maxEntries)
      throw new DomainError('conflict', `a collection holds at most ${COLLECTION_LIMITS.maxEntries} entries; nothing was imported`);
    return done!.n;
  });
  await collectionChanged(deps, userId);
  return { ok: true as const, rows: rows.length, entries: written };
}

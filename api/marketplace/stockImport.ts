// Stock from another marketplace's export (spec: "Import stock from a marketplace export"): a
// Cardmarket stock CSV, semicolon- or comma-separated, with a header row naming at least
// idProduct, Price (EUR), Condition and Amount (idArticle, Foil?, Language, Comments optional).
// All or nothing: every bad row is reported with its line and reason, and then nothing lands.
// Re-importing the same export updates the listings it made (price, condition, quantity are set,
// never added), keyed by the article (idArticle, else product, condition, foil and language).
import { parse } from 'csv-parse/sync';
import type { Db } from '../../sql/stores/db.js';
import { DomainError } from '../../schemas/errors.js';
import { LISTING_TIMES, type CONDITIONS } from '../../schemas/marketplace.js';
import * as q from '../../sql/marketplace.js';
import { crossRefHits } from '../../sql/priceMapping.js';
import { ValidationError, type ValidationIssue } from '../http/errors.js';
import { newVerificationCode } from './listings.js';

export const STOCK_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const MAX_ROWS = 10_000;
const REQUIRED = ['idProduct', 'Price', 'Condition', 'Amount'] as const;

/** Cardmarket's seven grades onto the spec's five (documented in the README). */
const CONDITION_OF: Record<string, (typeof CONDITIONS)[number]> = {
  MT: 'NM',
  NM: 'NM',
  EX: 'LP',
  GD: 'MP',
  LP: 'MP',
  PL: 'HP',
  PO: 'DMG',
};

type Article = {
  line: number;
  product: string;
  price: number;
  condition: (typeof CONDITIONS)[number];
  amount: number;
  comments: string | null;
  ref: string;
};

function issue(line: number, msg: string): ValidationIssue {
  return { loc: ['body', 'file', `line ${line}`], msg, type: 'value_error' };
}

function readArticles(file: Buffer): { articles: Article[]; issues: ValidationIssue[] } {
  const text = file.toString('utf8');
  const header = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length);
  const delimiter = (header.match(/;/g)?.length ?? 0) >= (header.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, delimiter, bom: true, skip_empty_lines: true, trim: true, relax_quotes: false }) as Record<
      string,
      string
    >[];
  } catch (err) {
    const e = err as { lines?: number; message: string };
    throw new ValidationError([issue(e.lines ?? 1, `not a readable CSV: ${e.message}`)]);
  }
  if (records.length === 0) throw new ValidationError([issue(1, 'the file has a header row and no articles')]);
  const missing = REQUIRED.filter((c) => !(c in records[0]!));
  if (missing.length) throw new ValidationError([issue(1, `the header row lacks ${missing.join(', ')}`)]);
  if (records.length > MAX_ROWS) throw new ValidationError([issue(MAX_ROWS + 2, `at most ${MAX_ROWS} articles per import`)]);
  const articles: Article[] = [];
  const issues: ValidationIssue[] = [];
  records.forEach((r, i) => {
    const line = i + 2;
    const problems: string[] = [];
    if (!/^\d{1,9}$/.test(r.idProduct ?? '')) problems.push('idProduct is not a Cardmarket product number');
    const price = Number((r.Price ?? '').replace(',', '.'));
    if (!/^\d{1,7}([.,]\d{1,2})?$/.test(r.Price ?? '') || price <= 0) problems.push(`Price "${r.Price}" is not an amount in EUR`);
    const condition = CONDITION_OF[(r.Condition ?? '').toUpperCase()];
    if (!condition) problems.push(`Condition "${r.Condition}" is none of MT, NM, EX, GD, LP, PL, PO`);
    const amount = Number(r.Amount);
    if (!/^\d{1,5}$/.test(r.Amount ?? '') || amount < 1 || amount > 10_000)
      problems.push(`Amount "${r.Amount}" is not a quantity of 1 to 10000`);
    if ((r.Comments ?? '').length > 2000) problems.push('Comments are longer than 2000 characters');
    if (problems.length) {
      issues.push(issue(line, problems.join('; ')));
      return;
    }
    const foil = /^(1|x|y|yes|true)$/i.test(r['Foil?'] ?? '') ? 'foil' : 'plain';
    const ref =
      r.idArticle && /^\d{1,12}$/.test(r.idArticle)
        ? `cardmarket:${r.idArticle}`
        : `cardmarket:${r.idProduct}/${condition}/${foil}/${r.Language || '-'}`;
    articles.push({ line, product: r.idProduct!, price, condition: condition!, amount, comments: r.Comments || null, ref });
  });
  return { articles, issues };
}

export async function importStock(db: Db, sellerId: number, file: Buffer): Promise<{ ok: true; imported: number; updated: number }> {
  const { articles, issues } = readArticles(file);
  const hits = await crossRefHits(db, 'eu_marketplace_product_id', [...new Set(articles.map((a) => a.product))]);
  const cardsOf = new Map<string, Set<number>>();
  for (const h of hits) cardsOf.set(h.ref_value, (cardsOf.get(h.ref_value) ?? new Set()).add(h.card_id));
  const seen = new Set<string>();
  for (const a of articles) {
    const cards = cardsOf.get(a.product);
    if (!cards) issues.push(issue(a.line, `no catalogue card has Cardmarket product ${a.product}`));
    else if (cards.size > 1) issues.push(issue(a.line, `Cardmarket product ${a.product} names several catalogue cards`));
    if (seen.has(a.ref)) issues.push(issue(a.line, 'the same article appears twice in the file'));
    seen.add(a.ref);
  }
  if (issues.length)
    throw new ValidationError(issues.sort((x, y) => Number(String(x.loc[2]).slice(5)) - Number(String(y.loc[2]).slice(5))));
  return db.transaction(async (tx) => {
    if ((await q.sellerProfileOf(tx, sellerId)).length === 0)
      throw new DomainError('forbidden', 'only sellers import stock: POST /seller/become first');
    let imported = 0;
    for (const a of articles) {
      const card = [...cardsOf.get(a.product)!][0]!;
      const [row] = await q.importStockArticle(
        tx,
        sellerId,
        card,
        a.price,
        a.condition,
        a.amount,
        a.comments,
        newVerificationCode(),
        LISTING_TIMES.lifetimeDays,
        a.ref,
      );
      if (row!.inserted) imported++;
    }
    return { ok: true as const, imported, updated: articles.length - imported };
  });
}

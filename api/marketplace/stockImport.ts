// Stock from another marketplace's export (spec: "Import stock from a marketplace export"): a
// Cardmarket stock CSV, semicolon- or comma-separated, with a header row naming at least
// idProduct, Price (EUR), Condition and Amount (idArticle, Foil?, Language, Comments optional).
// All or nothing: every bad row is reported with its line and reason, and then nothing lands.
// Re-importing the same export updates the listings it made (price, condition, quantity are set,
// never added), keyed by the article (idArticle, else product, condition, foil and language).
import type { Db } from '../../sql/stores/db.js';
import { DomainError, type InputIssue } from '../../schemas/errors.js';
import { LISTING_TIMES, type CONDITIONS } from '../../schemas/marketplace.js';
import { toCents } from '../../schemas/money.js';
import * as q from '../../sql/sellers.js';
import { crossRefHits } from '../../sql/priceMapping.js';
import { csvIssue, readCsvRecords, refuseIssues } from '../http/csvFile.js';
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

function readArticles(file: Buffer): { articles: Article[]; issues: InputIssue[] } {
  const records = readCsvRecords(file, { required: REQUIRED, maxRows: MAX_ROWS, what: 'articles' });
  const articles: Article[] = [];
  const issues: InputIssue[] = [];
  records.forEach(({ line, fields: r }) => {
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
      issues.push(csvIssue(line, problems.join('; ')));
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
    if (!cards) issues.push(csvIssue(a.line, `no catalogue card has Cardmarket product ${a.product}`));
    else if (cards.size > 1) issues.push(csvIssue(a.line, `Cardmarket product ${a.product} names several catalogue cards`));
    if (seen.has(a.ref)) issues.push(csvIssue(a.line, 'the same article appears twice in the file'));
    seen.add(a.ref);
  }
  refuseIssues(issues);
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
        toCents(a.price),
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

// A collector's cards (spec: "Collection entry"; POST /collection/add is the spec's path, the rest
// are ours: GET /collection, PATCH and DELETE /collection/{entry_id}, GET /collection/summary,
// GET /collection/export (CSV) and POST /collection/import).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { addEntry, collectionPage, removeEntry, updateEntry } from '../collection/entries.js';
import { presentEntry, presentEntryPage } from '../collection/entriesPresenter.js';
import { collectionSummary } from '../collection/summary.js';
import { VariantDailyLows } from '../collection/variantHistory.js';
import { collectionAnalytics } from '../collection/analytics.js';
import { COLLECTION_CSV_MAX_BYTES, exportCollection, importCollection } from '../collection/csv.js';
import { readUploadedFile } from '../http/upload.js';
import {
  AddToCollectionBody,
  CollectionEntry,
  CollectionEntryIdParams,
  CollectionPage,
  CollectionQuery,
  CollectionCsv,
  CollectionCsvUpload,
  CollectionImported,
  CollectionSummary,
  CollectionAnalytics,
  CollectionAnalyticsQuery,
  UpdateCollectionEntryBody,
} from '../../schemas/collection.js';
import { Ok } from '../../schemas/auth.js';

const tags = ['collection'];

export const collectionRoutes = (deps: AppDeps) => {
  const entryDeps = { db: deps.db, redis: deps.stores.redis, redisPrefix: deps.config.redisPrefix };
  const summaryDeps = { ...entryDeps, market: new VariantDailyLows(deps.analytics, deps.cache), cache: deps.cache };
  return [
    defineRoute({
      method: 'post',
      path: '/collection/add',
      summary: 'Add cards to own collection',
      description:
        'Defaults: quantity 1, condition NM, the card’s primary variant, ungraded. The same card, variant, condition and grading again adds to that entry’s quantity (at most 100,000). grading_company and grade need graded: true (400); an unknown variant of the card: 400 naming its variants; an unknown card: 404; at most 50,000 entries: 409.',
      tags,
      access: 'auth',
      body: AddToCollectionBody,
      response: CollectionEntry,
      status: 201,
      errors: [400, 404, 409],
      handler: async ({ body, caller }) => presentEntry(await addEntry(entryDeps, caller.account.id, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/collection',
      summary: 'Own collection, newest first, with values from the latest prices',
      tags,
      access: 'auth',
      query: CollectionQuery,
      response: CollectionPage,
      handler: async ({ query, caller }) => presentEntryPage(await collectionPage(deps.db, caller.account.id, query)),
    }),
    defineRoute({
      method: 'get',
      path: '/collection/summary',
      summary: 'What own collection is worth, and how that moved in 24 hours and 7 days',
      tags,
      access: 'auth',
      response: CollectionSummary,
      handler: async ({ caller }) => collectionSummary(summaryDeps, caller.account.id),
    }),
    defineRoute({
      method: 'get',
      path: '/collection/analytics',
      summary: 'How own collection’s value moved over 30, 90 or 365 days, its gainers and losers, its value by set and condition',
      tags,
      access: 'auth',
      query: CollectionAnalyticsQuery,
      response: CollectionAnalytics,
      handler: async ({ query, caller }) => collectionAnalytics(summaryDeps, caller.account.id, query.days),
    }),
    defineRoute({
      method: 'get',
      path: '/collection/export',
      summary: 'Own collection as a CSV file',
      description:
        'text/csv, UTF-8, RFC 4180 quoting. Columns: card_id, name, set, tcg, quantity, condition, variant, price_paid, current_value (the spec’s), then graded, grading_company, grade, so that the file imports back whole.',
      tags,
      access: 'auth',
      produces: 'csv',
      response: CollectionCsv,
      // ctx: the file's name is a Content-Disposition header.
      handler: async ({ caller, ctx }) => {
        ctx.set('Content-Disposition', 'attachment; filename="collection.csv"');
        return exportCollection(deps.db, caller.account.id);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/collection/import',
      summary: 'Import cards into own collection from a CSV file',
      description:
        'multipart/form-data, the CSV in `file` (at most 5 MB, 50,000 rows): a header row naming card_id, quantity, condition, price_paid (variant, graded, grading_company, grade optional; other columns, as an export’s, are ignored). Any bad row: 422 listing every bad line and its reason, and nothing is imported. Otherwise all at once: rows naming the same card, variant, condition and grading are summed, and each such entry’s quantity and price paid are set to the file’s; entries the file does not name stay. Importing the same file again changes nothing.',
      tags,
      access: 'auth',
      body: CollectionCsvUpload,
      bodyType: 'multipart',
      response: CollectionImported,
      errors: [409, 413, 415],
      // ctx: the CSV is an upload, read from the request's stream.
      handler: async ({ caller, ctx }) =>
        importCollection(
          entryDeps,
          caller.account.id,
          (await readUploadedFile(ctx, { field: 'file', maxBytes: COLLECTION_CSV_MAX_BYTES })).file,
        ),
    }),
    defineRoute({
      method: 'patch',
      path: '/collection/{entry_id}',
      summary: 'Change an own collection entry',
      description:
        'Any of quantity, condition, variant, price_paid, graded, grading_company, grade. Becoming the same as another own entry: 409.',
      tags,
      access: 'auth',
      params: CollectionEntryIdParams,
      body: UpdateCollectionEntryBody,
      response: CollectionEntry,
      errors: [400, 404, 409],
      handler: async ({ params, body, caller }) => presentEntry(await updateEntry(entryDeps, caller.account.id, params.entry_id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/collection/{entry_id}',
      summary: 'Remove an own collection entry',
      tags,
      access: 'auth',
      params: CollectionEntryIdParams,
      response: Ok,
      errors: [404],
      handler: async ({ params, caller }) => removeEntry(entryDeps, caller.account.id, params.entry_id),
    }),
  ];
};

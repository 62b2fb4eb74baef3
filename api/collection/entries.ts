// A collector's entries (spec: "Collection entry"; issue 16 §1): add, list, update, remove, each
// answered with its value from the latest prices. Every read and write names the owner, so another
// user's entry is simply not found.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { RedisStore } from '../../sql/stores/redis.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { CONDITION_FACTORS } from '../../schemas/market.js';
import { COLLECTION_LIMITS, gradingMisplaced, type AddToCollectionBody, type UpdateCollectionEntryBody } from '../../schemas/collection.js';
import { lockAccount } from '../../sql/alerts.js';
import * as q from '../../sql/collection.js';
import { variantName } from '../legacy/variants.js';

/** An entry with its value as the service reads it (entriesPresenter.ts shapes it). */
export type EntryRow = q.EntryValueRow;
export type EntryDeps = { db: Db; redis: RedisStore; redisPrefix: string };

export const collectionVersionKey = (redisPrefix: string, userId: number) => `${redisPrefix}:collection-version:${userId}`;

/** After every change of a user's collection: their cached summary is no longer read. */
export async function collectionChanged(deps: Omit<EntryDeps, 'db'>, userId: number): Promise<void> {
  await deps.redis.incr(collectionVersionKey(deps.redisPrefix, userId)).catch(() => undefined);
}
export const CONDITION_FACTORS_JSON = JSON.stringify(CONDITION_FACTORS);

/** Entries with their values, newest first. */
export const valuedEntries = (db: Db, ids: number[]) => q.entryValues(db, ids, CONDITION_FACTORS_JSON);

export type NamedVariant = { id: number; name: string };

/** The variants of cards, primary first, named as the legacy surface names them. */
export async function variantsByCard(db: Db, cardIds: number[]): Promise<Map<number, NamedVariant[]>> {
  const byCard = new Map<number, NamedVariant[]>();
  for (const v of await q.cardVariantsNamed(db, [...new Set(cardIds)])) {
    const list = byCard.get(v.card_id) ?? [];
    list.push({ id: v.variant_id, name: variantName(v.finish, v.print_run) });
    byCard.set(v.card_id, list);
  }
  return byCard;
}

/** Of a card's variants, the one of that name (any case), or the primary one when none is named. */
export const pickVariant = (own: NamedVariant[], name: string | undefined) =>
  name === undefined ? own[0] : own.find((v) => v.name === name.toLowerCase());

export const unknownVariant = (cardId: number, name: string | undefined, own: NamedVariant[]) =>
  `card ${cardId} has no variant "${name}"; it has: ${own.map((v) => v.name).join(', ')}`;

/** The variant an entry names: an unknown card is 404, an unknown name 400 listing the card's own. */
async function resolveVariant(db: Db, cardId: number, name: string | undefined): Promise<number> {
  const own = (await variantsByCard(db, [cardId])).get(cardId);
  if (!own) throw new NotFound(`Card ${cardId}`);
  const found = pickVariant(own, name);
  if (!found) throw new DomainError('invalid', unknownVariant(cardId, name, own));
  return found.id;
}

type Grading = Parameters<typeof gradingMisplaced>[0];

function checkGrading(e: Grading): void {
  if (gradingMisplaced(e)) throw new DomainError('invalid', 'grading_company and grade belong to a graded card: send graded: true');
}

async function refuseWhenFull(db: Db, userId: number, adding: number): Promise<void> {
  const [counted] = await q.countCollection(db, userId, null);
  if (counted!.n + adding > COLLECTION_LIMITS.maxEntries)
    throw new DomainError('conflict', `a collection holds at most ${COLLECTION_LIMITS.maxEntries} entries`);
}

export async function addEntry(deps: EntryDeps, userId: number, body: z.output<typeof AddToCollectionBody>): Promise<EntryRow> {
  const { db } = deps;
  checkGrading(body);
  const variantId = await resolveVariant(db, body.card_id, body.variant);
  const added = await db.transaction(async (tx) => {
    // Adds of one account wait for each other here, so two at the cap cannot both pass it.
    await lockAccount(tx, userId);
    await refuseWhenFull(tx, userId, 1);
    const [row] = await q.addToCollection(
      tx,
      userId,
      body.card_id,
      variantId,
      body.quantity,
      body.condition,
      body.price_paid ?? null,
      body.graded,
      body.grading_company ?? null,
      body.grade ?? null,
    );
    return row;
  });
  await collectionChanged(deps, userId);
  return (await valuedEntries(db, [added!.id]))[0]!;
}

export async function collectionPage(
  db: Db,
  userId: number,
  query: { limit: number; offset: number; tcg_slug?: string },
): Promise<{ items: EntryRow[]; total: number }> {
  const page = await q.collectionPageIds(db, userId, query.tcg_slug ?? null, query.limit, query.offset);
  // Past the last page the window count has no row to ride on.
  const total = page[0]?.total ?? (await q.countCollection(db, userId, query.tcg_slug ?? null))[0]!.n;
  const rows = page.length
    ? await valuedEntries(
        db,
        page.map((p) => p.id),
      )
    : [];
  return { items: rows, total };
}

export async function updateEntry(
  deps: EntryDeps,
  userId: number,
  entryId: number,
  changes: z.output<typeof UpdateCollectionEntryBody>,
): Promise<EntryRow> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const [entry] = await q.lockEntry(tx, entryId, userId);
    if (!entry) throw new NotFound('Collection entry');
    const graded = changes.graded ?? entry.graded;
    const next = {
      graded,
      grading_company: changes.grading_company !== undefined ? changes.grading_company : graded ? entry.grading_company : null,
      grade: changes.grade !== undefined ? changes.grade : graded ? entry.grade : null,
    };
    checkGrading(next);
    const variantId = changes.variant === undefined ? entry.variant_id : await resolveVariant(tx, entry.card_id, changes.variant);
    try {
      await q.updateEntry(
        tx,
        entryId,
        variantId,
        changes.quantity ?? entry.quantity,
        changes.condition ?? entry.condition,
        changes.price_paid !== undefined ? changes.price_paid : entry.price_paid,
        next.graded,
        next.grading_company,
        next.grade,
      );
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      throw new DomainError('conflict', 'another entry has this card, variant, condition and grading: change its quantity instead');
    }
  });
  await collectionChanged(deps, userId);
  return (await valuedEntries(db, [entryId]))[0]!;
}

export async function removeEntry(deps: EntryDeps, userId: number, entryId: number): Promise<{ ok: true }> {
  if ((await q.deleteEntry(deps.db, entryId, userId)).length === 0) throw new NotFound('Collection entry');
  await collectionChanged(deps, userId);
  return { ok: true as const };
}

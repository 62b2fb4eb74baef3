// Writes a CatalogueBatch into PostgreSQL. Upserts key on external_key, so existing ids never
// change and a re-import only adds what is new (and refreshes descriptive fields).
import type pg from 'pg';
import type { CatalogueBatch } from './model.js';
import { FeedFormatError } from '../sources/types.js';
import { pgTransaction } from '../../sql/stores/db.js';
import {
  insertCrossRefs,
  recordExternalIds,
  upsertCards,
  upsertGame,
  upsertImages,
  upsertPrintings,
  upsertSets,
  upsertVariants,
} from '../../sql/catalogueWrites.js';

export type UpsertSummary = {
  game: string;
  sets: number;
  cards: number;
  printings: number;
  variants: number;
  /** External ids that were new or different (each one logged in external_id_changes). */
  externalIdChanges: number;
};

const CHUNK = 2000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const idsByKey = (rows: { id: number; external_key: string }[]) => new Map(rows.map((r) => [r.external_key, r.id]));

/**
 * Refuses a batch holding a key with a lone UTF-16 surrogate (what a JSON "\uD800" escape decodes
 * to): PostgreSQL would store it as U+FFFD, so two upstream cards differing only there (or from
 * one spelt with U+FFFD) would be upserted as one.
 */
function refuseIllFormedKeys(batch: CatalogueBatch): void {
  const idsOf = (ids: CatalogueBatch['cards'][number]['externalIds']) => Object.values(ids ?? {});
  const keys = [
    ...batch.sets.map((s) => s.externalKey),
    ...batch.cards.flatMap((c) => [
      c.externalKey,
      c.setExternalKey,
      ...c.crossRefs.map((r) => r.value),
      ...idsOf(c.externalIds),
      ...c.printings.flatMap((p) => [
        p.externalKey,
        ...p.crossRefs.map((r) => r.value),
        ...p.variants.flatMap((v) => [v.externalKey, ...idsOf(v.externalIds)]),
      ]),
    ]),
  ];
  const bad = keys.find((k) => !k.isWellFormed());
  if (bad !== undefined)
    throw new FeedFormatError(
      `${batch.game.slug} catalogue: the key ${JSON.stringify(bad)} holds a lone UTF-16 surrogate, which would be stored as U+FFFD (another key, perhaps); nothing of the batch is written`,
    );
}

/** `reason` is what the id change log says caused a change, e.g. "catalogue sync: pokemon-tcg-data". */
export async function upsertCatalogue(pool: pg.Pool, batch: CatalogueBatch, reason = 'catalogue sync'): Promise<UpsertSummary> {
  refuseIllFormedKeys(batch);
  return pgTransaction(pool, async (client) => {
    const g = batch.game;
    const [game] = await upsertGame(client, g.slug, g.name, g.publisher, g.websiteUrl, g.description);
    const gameId = game!.id;

    const setIds = new Map<string, number>();
    for (const part of chunks(batch.sets)) {
      const ids = idsByKey(
        await upsertSets(
          client,
          gameId,
          part.map((s) => s.externalKey),
          part.map((s) => s.code),
          part.map((s) => s.name),
          part.map((s) => s.series),
          part.map((s) => s.releaseDate),
          part.map((s) => s.totalCards),
          part.map((s) => s.printedTotal),
          part.map((s) => s.isPromo),
          part.map((s) => s.language),
          part.map((s) => s.logoUrl),
          part.map((s) => s.symbolUrl),
          part.map((s) => JSON.stringify(s.attributes ?? {})),
        ),
      );
      ids.forEach((v, k) => setIds.set(k, v));
    }

    let printings = 0;
    let variants = 0;
    let externalIdChanges = 0;
    for (const part of chunks(batch.cards)) {
      const cardIds = idsByKey(
        await upsertCards(
          client,
          gameId,
          part.map((c) => {
            const id = setIds.get(c.setExternalKey);
            if (id === undefined) throw new Error(`card ${c.externalKey} names unknown set ${c.setExternalKey}`);
            return id;
          }),
          part.map((c) => c.externalKey),
          part.map((c) => c.name),
          part.map((c) => c.collectorNumber),
          part.map((c) => c.rarity),
          part.map((c) => c.cardType),
          part.map((c) => JSON.stringify(c.subtypes)),
          part.map((c) => c.artist),
          part.map((c) => JSON.stringify(c.attributes)),
          part.map((c) => JSON.stringify(c.legalities)),
        ),
      );

      const allPrintings = part.flatMap((c) => c.printings.map((p) => ({ cardId: cardIds.get(c.externalKey)!, p })));
      const printingIds = idsByKey(
        await upsertPrintings(
          client,
          allPrintings.map((x) => x.cardId),
          allPrintings.map((x) => x.p.externalKey),
          allPrintings.map((x) => x.p.language),
          allPrintings.map((x) => x.p.printRun),
          allPrintings.map((x) => x.p.collectorNumber),
          allPrintings.map((x) => x.p.isPromo),
        ),
      );
      printings += printingIds.size;

      const allVariants = allPrintings.flatMap((x) => x.p.variants.map((v) => ({ printingId: printingIds.get(x.p.externalKey)!, v })));
      const written = await upsertVariants(
        client,
        allVariants.map((x) => x.printingId),
        allVariants.map((x) => x.v.externalKey),
        allVariants.map((x) => x.v.finish),
        allVariants.map((x) => x.v.variantLabel),
        allVariants.map((x) => x.v.printRarity),
        allVariants.map((x) => x.v.isEx),
        allVariants.map((x) => x.v.isV),
        allVariants.map((x) => x.v.imageUrl),
      );
      variants += written.length;

      const variantIds = idsByKey(written);
      const ids = part.flatMap((c) =>
        c.printings.flatMap((p) =>
          p.variants.flatMap((v) =>
            Object.entries({ ...c.externalIds, ...v.externalIds }).map(([kind, value]) => ({
              variantId: variantIds.get(v.externalKey)!,
              kind,
              value: value!,
            })),
          ),
        ),
      );
      if (ids.length > 0) {
        const changes = await recordExternalIds(
          client,
          ids.map((x) => x.variantId),
          ids.map((x) => x.kind),
          ids.map((x) => x.value),
          reason,
        );
        externalIdChanges += changes.length;
      }

      const images = part.flatMap((c) => c.images.map((i) => ({ cardId: cardIds.get(c.externalKey)!, i })));
      await upsertImages(
        client,
        images.map((x) => x.cardId),
        images.map((x) => x.i.source),
        images.map((x) => x.i.kind),
        images.map((x) => x.i.url),
        images.map((x) => x.i.width),
        images.map((x) => x.i.height),
      );

      const refs = part.flatMap((c) => [
        ...c.crossRefs.map((r) => ({ cardId: cardIds.get(c.externalKey)!, printingId: null as number | null, r })),
        ...c.printings.flatMap((p) =>
          p.crossRefs.map((r) => ({ cardId: cardIds.get(c.externalKey)!, printingId: printingIds.get(p.externalKey)!, r })),
        ),
      ]);
      await insertCrossRefs(
        client,
        refs.map((x) => x.cardId),
        refs.map((x) => x.printingId),
        refs.map((x) => x.r.key),
        refs.map((x) => x.r.value),
      );
    }
    return { game: g.slug, sets: setIds.size, cards: batch.cards.length, printings, variants, externalIdChanges };
  });
}

// Writes a CatalogueBatch into PostgreSQL. Upserts key on external_key, so existing ids never
// change and a re-import only adds what is new (and refreshes descriptive fields).
import type pg from 'pg';
import type { CatalogueBatch } from './model.js';

export type UpsertSummary = { game: string; sets: number; cards: number; printings: number; variants: number };

const CHUNK = 2000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function idsByKey(client: pg.PoolClient, sql: string, params: unknown[]): Promise<Map<string, number>> {
  const res = await client.query<{ id: number; external_key: string }>(sql, params);
  return new Map(res.rows.map((r) => [r.external_key, r.id]));
}

export async function upsertCatalogue(pool: pg.Pool, batch: CatalogueBatch): Promise<UpsertSummary> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const g = batch.game;
    const gameRes = await client.query<{ id: number }>(
      `INSERT INTO games (slug, name, publisher, website_url, description) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name, publisher = EXCLUDED.publisher,
         website_url = EXCLUDED.website_url, description = EXCLUDED.description
       RETURNING id`,
      [g.slug, g.name, g.publisher, g.websiteUrl, g.description],
    );
    const gameId = gameRes.rows[0]!.id;

    const setIds = new Map<string, number>();
    for (const part of chunks(batch.sets)) {
      const ids = await idsByKey(
        client,
        `INSERT INTO sets (game_id, external_key, code, name, series, release_date, total_cards, printed_total, is_promo, language, logo_url, symbol_url)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::int[], $8::int[], $9::bool[], $10::text[], $11::text[], $12::text[])
         ON CONFLICT (external_key) DO UPDATE SET code = EXCLUDED.code, name = EXCLUDED.name, series = EXCLUDED.series,
           release_date = EXCLUDED.release_date, total_cards = EXCLUDED.total_cards, printed_total = EXCLUDED.printed_total,
           is_promo = EXCLUDED.is_promo, logo_url = EXCLUDED.logo_url, symbol_url = EXCLUDED.symbol_url, updated_at = now()
         RETURNING id, external_key`,
        [
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
        ],
      );
      ids.forEach((v, k) => setIds.set(k, v));
    }

    let printings = 0;
    let variants = 0;
    for (const part of chunks(batch.cards)) {
      const cardIds = await idsByKey(
        client,
        `INSERT INTO cards (game_id, set_id, external_key, name, collector_number, rarity, card_type, subtypes, artist, attributes, legalities)
         SELECT $1, u.set_id, u.external_key, u.name, u.num, u.rarity, u.card_type, ARRAY(SELECT jsonb_array_elements_text(u.subtypes)), u.artist, u.attributes, u.legalities
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::jsonb[], $11::jsonb[])
           AS u(set_id, external_key, name, num, rarity, card_type, subtypes, artist, attributes, legalities)
         ON CONFLICT (external_key) DO UPDATE SET name = EXCLUDED.name, collector_number = EXCLUDED.collector_number,
           rarity = EXCLUDED.rarity, card_type = EXCLUDED.card_type, subtypes = EXCLUDED.subtypes, artist = EXCLUDED.artist,
           attributes = EXCLUDED.attributes, legalities = EXCLUDED.legalities, updated_at = now()
         RETURNING id, external_key`,
        [
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
        ],
      );

      const allPrintings = part.flatMap((c) => c.printings.map((p) => ({ cardId: cardIds.get(c.externalKey)!, p })));
      const printingIds = await idsByKey(
        client,
        `INSERT INTO printings (card_id, external_key, language, print_run, collector_number, is_promo)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[])
         ON CONFLICT (external_key) DO UPDATE SET language = EXCLUDED.language, print_run = EXCLUDED.print_run,
           collector_number = EXCLUDED.collector_number, is_promo = EXCLUDED.is_promo
         RETURNING id, external_key`,
        [
          allPrintings.map((x) => x.cardId),
          allPrintings.map((x) => x.p.externalKey),
          allPrintings.map((x) => x.p.language),
          allPrintings.map((x) => x.p.printRun),
          allPrintings.map((x) => x.p.collectorNumber),
          allPrintings.map((x) => x.p.isPromo),
        ],
      );
      printings += printingIds.size;

      const allVariants = allPrintings.flatMap((x) => x.p.variants.map((v) => ({ printingId: printingIds.get(x.p.externalKey)!, v })));
      const res = await client.query(
        `INSERT INTO variants (printing_id, external_key, finish, variant_label, print_rarity, is_ex, is_v, image_url)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::bool[], $8::text[])
         ON CONFLICT (external_key) DO UPDATE SET finish = EXCLUDED.finish, variant_label = EXCLUDED.variant_label,
           print_rarity = EXCLUDED.print_rarity, is_ex = EXCLUDED.is_ex, is_v = EXCLUDED.is_v, image_url = EXCLUDED.image_url`,
        [
          allVariants.map((x) => x.printingId),
          allVariants.map((x) => x.v.externalKey),
          allVariants.map((x) => x.v.finish),
          allVariants.map((x) => x.v.variantLabel),
          allVariants.map((x) => x.v.printRarity),
          allVariants.map((x) => x.v.isEx),
          allVariants.map((x) => x.v.isV),
          allVariants.map((x) => x.v.imageUrl),
        ],
      );
      variants += res.rowCount ?? 0;

      const images = part.flatMap((c) => c.images.map((i) => ({ cardId: cardIds.get(c.externalKey)!, i })));
      await client.query(
        `INSERT INTO images (card_id, source, kind, source_url, width, height)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[])
         ON CONFLICT (card_id, source, kind) DO UPDATE SET source_url = EXCLUDED.source_url, width = EXCLUDED.width, height = EXCLUDED.height`,
        [
          images.map((x) => x.cardId),
          images.map((x) => x.i.source),
          images.map((x) => x.i.kind),
          images.map((x) => x.i.url),
          images.map((x) => x.i.width),
          images.map((x) => x.i.height),
        ],
      );

      const refs = part.flatMap((c) => [
        ...c.crossRefs.map((r) => ({ cardId: cardIds.get(c.externalKey)!, printingId: null as number | null, r })),
        ...c.printings.flatMap((p) =>
          p.crossRefs.map((r) => ({ cardId: cardIds.get(c.externalKey)!, printingId: printingIds.get(p.externalKey)!, r })),
        ),
      ]);
      await client.query(
        `INSERT INTO cross_refs (card_id, printing_id, ref_key, ref_value)
         SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[])
         ON CONFLICT (card_id, ref_key, ref_value) DO NOTHING`,
        [refs.map((x) => x.cardId), refs.map((x) => x.printingId), refs.map((x) => x.r.key), refs.map((x) => x.r.value)],
      );
    }
    await client.query('COMMIT');
    return { game: g.slug, sets: setIds.size, cards: batch.cards.length, printings, variants };
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

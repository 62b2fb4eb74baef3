// PostgreSQL reads of the v2 surface: games, sets, cards, and the materialised latest prices.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import type { CardDetail, CardSummary, Game, ResolvedCard, SetHeader, SetSummary } from '../../schemas/v2.js';
import { CROSS_REF_KEYS } from '../../schemas/v2.js';
import { cardImageUrl, placeholderImage } from '../images/urls.js';

type GameRow = z.output<typeof Game>;

const GAME_COUNTS = `
  SELECT g.slug, g.name, g.active,
         (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
         (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets
  FROM games g`;

export async function listGamesWithCards(db: Db): Promise<GameRow[]> {
  return db.query<GameRow>(`SELECT * FROM (${GAME_COUNTS}) x WHERE cards > 0 ORDER BY cards DESC, slug`);
}

export async function gameBySlug(db: Db, slug: string): Promise<(GameRow & { id: number }) | null> {
  const rows = await db.query<GameRow & { id: number }>(
    `SELECT g.id, g.slug, g.name, g.active,
            (SELECT count(*) FROM cards c WHERE c.game_id = g.id)::int AS cards,
            (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets
     FROM games g WHERE g.slug = $1`,
    [slug],
  );
  return rows[0] ?? null;
}

export async function setsOfGame(db: Db, gameId: number, page: number, size: number): Promise<z.input<typeof SetSummary>[]> {
  return db.query(
    `SELECT s.id, s.code, s.name, s.series, s.release_date::text AS release_date, s.total_cards,
            (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS card_count, s.is_promo, s.language
     FROM sets s WHERE s.game_id = $1
     ORDER BY s.release_date DESC NULLS LAST, s.id DESC
     LIMIT $2 OFFSET $3`,
    [gameId, size, (page - 1) * size],
  );
}

export async function setHeader(db: Db, setId: number): Promise<(z.input<typeof SetHeader> & { cards_total: number }) | null> {
  const rows = await db.query<{
    id: number;
    code: string;
    name: string;
    series: string | null;
    release_date: string | null;
    total_cards: number;
    is_promo: boolean;
    language: string;
    game_slug: string;
    game_name: string;
    cards_total: number;
  }>(
    `SELECT s.id, s.code, s.name, s.series, s.release_date::text AS release_date, s.total_cards, s.is_promo, s.language,
            g.slug AS game_slug, g.name AS game_name,
            (SELECT count(*) FROM cards c WHERE c.set_id = s.id)::int AS cards_total
     FROM sets s JOIN games g ON g.id = s.game_id WHERE s.id = $1`,
    [setId],
  );
  const r = rows[0];
  if (!r) return null;
  const { game_slug, game_name, ...rest } = r;
  return { ...rest, game: { slug: game_slug, name: game_name } };
}

// Collector numbers sort by their numeric part first ("2" before "10"), then as text ("TG01").
const NUMBER_ORDER = `NULLIF(substring(c.collector_number FROM '\\d+'), '')::numeric NULLS LAST, c.collector_number, c.id`;

export async function cardsOfSet(db: Db, setId: number, page: number, size: number): Promise<z.input<typeof CardSummary>[]> {
  const rows = await db.query<{
    id: number;
    name: string;
    collector_number: string;
    rarity: string | null;
    card_type: string | null;
    has_image: boolean;
  }>(
    `SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type,
            EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id) AS has_image
     FROM cards c WHERE c.set_id = $1
     ORDER BY ${NUMBER_ORDER}
     LIMIT $2 OFFSET $3`,
    [setId, size, (page - 1) * size],
  );
  return rows.map(({ has_image, ...c }) => ({ ...c, thumbnail_url: has_image ? cardImageUrl(c.id, 'small') : null }));
}

type PriceRow = {
  variant_id: number;
  region: string;
  source: string;
  price_type: string;
  grading_company: string;
  grade: string;
  currency: string;
  amount: string;
  as_of: string;
};

export async function cardDetail(
  db: Db,
  cardId: number,
  hasOriginal: (cardId: number, kind: 'small' | 'large') => boolean,
): Promise<z.input<typeof CardDetail> | null> {
  const [cards, refs, images, variants, prices] = await Promise.all([
    db.query<{
      id: number;
      name: string;
      collector_number: string;
      rarity: string | null;
      card_type: string | null;
      game_slug: string;
      game_name: string;
      set_id: number;
      set_code: string;
      set_name: string;
    }>(
      `SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type, g.slug AS game_slug, g.name AS game_name,
              s.id AS set_id, s.code AS set_code, s.name AS set_name
       FROM cards c JOIN sets s ON s.id = c.set_id JOIN games g ON g.id = c.game_id WHERE c.id = $1`,
      [cardId],
    ),
    db.query<{ ref_key: string; ref_value: string }>(
      `SELECT DISTINCT ON (ref_key) ref_key, ref_value FROM cross_refs WHERE card_id = $1 ORDER BY ref_key, printing_id NULLS FIRST, ref_value`,
      [cardId],
    ),
    db.query<{ kind: 'small' | 'large'; source: string; width: number; height: number }>(
      `SELECT kind, source, width, height FROM images WHERE card_id = $1 ORDER BY (kind = 'large') DESC, id`,
      [cardId],
    ),
    db.query<{
      printing_id: number;
      language: string;
      print_run: string;
      p_number: string;
      is_promo: boolean;
      id: number | null;
      finish: string;
      variant_label: string;
      print_rarity: string | null;
      is_ex: boolean | null;
      is_v: boolean | null;
      image_url: string | null;
      image_is_fallback: boolean | null;
    }>(
      `SELECT p.id AS printing_id, p.language, p.print_run, p.collector_number AS p_number, p.is_promo,
              v.id, v.finish, v.variant_label, v.print_rarity, v.is_ex, v.is_v, v.image_url, v.image_is_fallback
       FROM printings p LEFT JOIN variants v ON v.printing_id = p.id
       WHERE p.card_id = $1 ORDER BY p.id, v.id`,
      [cardId],
    ),
    db.query<PriceRow>(
      `SELECT l.variant_id, l.region, l.source, l.price_type, l.grading_company, l.grade, l.currency, l.amount::text AS amount, l.as_of::text AS as_of
       FROM variant_prices_latest l JOIN variants v ON v.id = l.variant_id JOIN printings p ON p.id = v.printing_id
       WHERE p.card_id = $1 ORDER BY l.region, l.source, l.price_type, l.grading_company, l.grade`,
      [cardId],
    ),
  ]);
  const c = cards[0];
  if (!c) return null;

  const pricesByVariant = new Map<number, z.input<typeof CardDetail>['printings'][number]['variants'][number]['prices']>();
  for (const p of prices) {
    let bucket = pricesByVariant.get(p.variant_id);
    if (!bucket) pricesByVariant.set(p.variant_id, (bucket = { eu: [], us: [], graded: [] }));
    const amount = Number(p.amount);
    if (p.grading_company !== 'raw') {
      bucket.graded.push({
        source: p.source,
        grading_company: p.grading_company,
        grade: p.grade,
        currency: p.currency,
        amount,
        as_of: p.as_of,
      });
    } else if (p.region === 'eu' || p.region === 'us') {
      bucket[p.region].push({ source: p.source, price_type: p.price_type, currency: p.currency, amount, as_of: p.as_of });
    }
  }

  const printings: z.input<typeof CardDetail>['printings'] = [];
  for (const row of variants) {
    let printing = printings.at(-1);
    if (!printing || printing.id !== row.printing_id) {
      printing = {
        id: row.printing_id,
        language: row.language,
        print_run: row.print_run,
        collector_number: row.p_number,
        is_promo: row.is_promo,
        variants: [],
      };
      printings.push(printing);
    }
    if (row.id === null) continue;
    printing.variants.push({
      id: row.id,
      finish: row.finish,
      variant_label: row.variant_label,
      print_rarity: row.print_rarity,
      is_ex: row.is_ex,
      is_v: row.is_v,
      image_url: row.image_url,
      image_is_fallback: row.image_is_fallback,
      prices: pricesByVariant.get(row.id) ?? { eu: [], us: [], graded: [] },
    });
  }

  const crossRefs = Object.fromEntries(CROSS_REF_KEYS.map((k) => [k, refs.find((r) => r.ref_key === k)?.ref_value ?? null])) as z.input<
    typeof CardDetail
  >['cross_refs'];
  return {
    id: c.id,
    name: c.name,
    collector_number: c.collector_number,
    rarity: c.rarity,
    card_type: c.card_type,
    game: { slug: c.game_slug, name: c.game_name },
    set: { id: c.set_id, code: c.set_code, name: c.set_name },
    cross_refs: crossRefs,
    images: images.length
      ? images.map((i) => ({
          url: cardImageUrl(c.id, i.kind),
          source: i.source,
          width: i.width,
          height: i.height,
          format: 'avif',
          is_placeholder: !hasOriginal(c.id, i.kind),
        }))
      : [placeholderImage(c.id)],
    printings,
  };
}

/** The card's variants in display order: the first is the default for history. */
export async function variantIdsOfCard(db: Db, cardId: number): Promise<number[] | null> {
  const rows = await db.query<{ card_id: number; variant_id: number | null }>(
    `SELECT c.id AS card_id, v.id AS variant_id
     FROM cards c LEFT JOIN printings p ON p.card_id = c.id LEFT JOIN variants v ON v.printing_id = p.id
     WHERE c.id = $1 ORDER BY p.id, v.id`,
    [cardId],
  );
  if (rows.length === 0) return null;
  return rows.flatMap((r) => (r.variant_id === null ? [] : [r.variant_id]));
}

export async function resolveCards(
  db: Db,
  q: { game: string; name: string; number?: string; set?: string },
): Promise<z.input<typeof ResolvedCard>[]> {
  // "004", "4" and "4/102" name the same collector number.
  const number =
    q.number
      ?.split('/')[0]!
      .replace(/^0+(?=.)/, '')
      .toLowerCase() ?? null;
  const setId = q.set && /^\d+$/.test(q.set) ? Number(q.set) : null;
  const rows = await db.query<{
    id: number;
    name: string;
    collector_number: string;
    rarity: string | null;
    card_type: string | null;
    has_image: boolean;
    set_id: number;
    set_code: string;
    set_name: string;
  }>(
    `SELECT c.id, c.name, c.collector_number, c.rarity, c.card_type,
            EXISTS (SELECT 1 FROM images i WHERE i.card_id = c.id) AS has_image,
            s.id AS set_id, s.code AS set_code, s.name AS set_name
     FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id
     WHERE g.slug = $1 AND lower(c.name) = lower($2)
       AND ($3::text IS NULL OR lower(regexp_replace(c.collector_number, '^0+(?=.)', '')) = $3)
       AND ($4::text IS NULL OR lower(s.code) = lower($4) OR s.id = $5)
     ORDER BY s.release_date DESC NULLS LAST, ${NUMBER_ORDER}
     LIMIT 50`,
    [q.game, q.name, number, q.set ?? null, setId],
  );
  return rows.map(({ has_image, set_id, set_code, set_name, ...c }) => ({
    ...c,
    thumbnail_url: has_image ? cardImageUrl(c.id, 'small') : null,
    set: { id: set_id, code: set_code, name: set_name },
  }));
}

export async function catalogueTotals(db: Db): Promise<{ cards: number; sets: number; games: number; variants: number; images: number }> {
  const rows = await db.query<{ cards: number; sets: number; games: number; variants: number; images: number }>(
    `SELECT (SELECT count(*) FROM cards)::int AS cards, (SELECT count(*) FROM sets)::int AS sets,
            (SELECT count(DISTINCT game_id) FROM cards)::int AS games, (SELECT count(*) FROM variants)::int AS variants,
            (SELECT count(*) FROM images)::int AS images`,
  );
  return rows[0]!;
}

// pokemontcg.io compatibility: its `q` tree (schemas/pokemontcgQuery.ts) compiled to a SQL
// condition over cards c and sets s, and its orderBy to an ORDER BY, both from fixed fragments
// with every value a $n parameter; then the typed reads that fill the card and set objects.
import { z } from 'zod';
import type { QNode, QValue } from '../schemas/pokemontcgQuery.js';
import {
  POKEMONTCG_CARD_SORTS,
  POKEMONTCG_CM_FIELDS,
  POKEMONTCG_FINISHES,
  POKEMONTCG_SET_SORTS,
  POKEMONTCG_TCG_FIELDS,
} from '../schemas/pokemontcg.js';
import { pgComposedQuery, pgQuery } from './typedQuery.js';

/** A field, an operator or a bound q cannot use; the API answers 422 with its message. */
export class QFieldError extends Error {}

type Field =
  /** one value per row; numeric when ranges compare as numbers */
  | { kind: 'one'; sql: string; numeric?: boolean }
  /** several values per row: a set-returning SELECT of text, read as v(x) */
  | { kind: 'many'; sql: string; numeric?: boolean }
  /** a latest price of the card's variants */
  | { kind: 'price'; source: string; priceType: string; finish: string | null; notFinish?: string; printRun: string | null };

const attr = (name: string) => `c.attributes->>'${name}'`;
const attrList = (name: string) => `SELECT jsonb_array_elements_text(c.attributes->'${name}')`;
const attrMembers = (list: string, member: string) => `SELECT e->>'${member}' FROM jsonb_array_elements(c.attributes->'${list}') e`;

const SET_FIELDS: Record<string, Field> = {
  id: { kind: 'one', sql: 'substr(s.external_key, 12)' },
  name: { kind: 'one', sql: 's.name' },
  series: { kind: 'one', sql: 's.series' },
  ptcgoCode: { kind: 'one', sql: "s.attributes->>'ptcgoCode'" },
  releaseDate: { kind: 'one', sql: "to_char(s.release_date, 'YYYY/MM/DD')" },
  updatedAt: { kind: 'one', sql: "to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY/MM/DD HH24:MI:SS')" },
  printedTotal: { kind: 'one', sql: 's.printed_total::text', numeric: true },
  total: { kind: 'one', sql: 's.total_cards::text', numeric: true },
};

const CARD_FIELDS: Record<string, Field> = {
  id: { kind: 'one', sql: 'substr(c.external_key, 12)' },
  name: { kind: 'one', sql: 'c.name' },
  number: { kind: 'one', sql: 'c.collector_number', numeric: true },
  rarity: { kind: 'one', sql: 'c.rarity' },
  artist: { kind: 'one', sql: 'c.artist' },
  supertype: { kind: 'one', sql: 'c.card_type' },
  level: { kind: 'one', sql: attr('level') },
  hp: { kind: 'one', sql: attr('hp'), numeric: true },
  evolvesFrom: { kind: 'one', sql: attr('evolvesFrom') },
  flavorText: { kind: 'one', sql: attr('flavorText') },
  regulationMark: { kind: 'one', sql: attr('regulationMark') },
  convertedRetreatCost: { kind: 'one', sql: attr('convertedRetreatCost'), numeric: true },
  subtypes: { kind: 'many', sql: 'SELECT unnest(c.subtypes)' },
  types: { kind: 'many', sql: attrList('types') },
  evolvesTo: { kind: 'many', sql: attrList('evolvesTo') },
  retreatCost: { kind: 'many', sql: attrList('retreatCost') },
  rules: { kind: 'many', sql: attrList('rules') },
  nationalPokedexNumbers: { kind: 'many', sql: attrList('nationalPokedexNumbers'), numeric: true },
  'attacks.name': { kind: 'many', sql: attrMembers('attacks', 'name') },
  'attacks.text': { kind: 'many', sql: attrMembers('attacks', 'text') },
  'attacks.damage': { kind: 'many', sql: attrMembers('attacks', 'damage') },
  'attacks.convertedEnergyCost': { kind: 'many', sql: attrMembers('attacks', 'convertedEnergyCost'), numeric: true },
  'attacks.cost': { kind: 'many', sql: "SELECT jsonb_array_elements_text(e->'cost') FROM jsonb_array_elements(c.attributes->'attacks') e" },
  'abilities.name': { kind: 'many', sql: attrMembers('abilities', 'name') },
  'abilities.text': { kind: 'many', sql: attrMembers('abilities', 'text') },
  'abilities.type': { kind: 'many', sql: attrMembers('abilities', 'type') },
  'weaknesses.type': { kind: 'many', sql: attrMembers('weaknesses', 'type') },
  'weaknesses.value': { kind: 'many', sql: attrMembers('weaknesses', 'value') },
  'resistances.type': { kind: 'many', sql: attrMembers('resistances', 'type') },
  'resistances.value': { kind: 'many', sql: attrMembers('resistances', 'value') },
  'ancientTrait.name': { kind: 'one', sql: "c.attributes->'ancientTrait'->>'name'" },
  'ancientTrait.text': { kind: 'one', sql: "c.attributes->'ancientTrait'->>'text'" },
  ...Object.fromEntries(Object.entries(SET_FIELDS).map(([name, f]) => [`set.${name}`, f])),
  ...Object.fromEntries(
    Object.entries(POKEMONTCG_FINISHES).flatMap(([key, { finish, printRun }]) =>
      POKEMONTCG_TCG_FIELDS.map(([field, priceType]) => [
        `tcgplayer.prices.${key}.${field}`,
        { kind: 'price', source: 'tcgplayer', priceType, finish, printRun } satisfies Field,
      ]),
    ),
  ),
  ...Object.fromEntries(
    POKEMONTCG_CM_FIELDS.map(([field, priceType, finish]) => [
      `cardmarket.prices.${field}`,
      finish
        ? ({ kind: 'price', source: 'cardmarket', priceType, finish, printRun: null } satisfies Field)
        : ({ kind: 'price', source: 'cardmarket', priceType, finish: null, notFinish: 'reverse-holofoil', printRun: null } satisfies Field),
    ]),
  ),
};

/** Fields whose legalities key is free (standard, expanded, unlimited, and whatever comes next). */
const LEGALITIES: Record<'card' | 'set', string> = { card: 'c.legalities', set: "(s.attributes->'legalities')" };

const SORTS: {
  card: Record<(typeof POKEMONTCG_CARD_SORTS)[number], string[]>;
  set: Record<(typeof POKEMONTCG_SET_SORTS)[number], string[]>;
} = {
  set: {
    id: ['s.external_key'],
    name: ['s.name'],
    series: ['s.series'],
    releaseDate: ['s.release_date'],
    updatedAt: ['s.updated_at'],
    total: ['s.total_cards'],
    printedTotal: ['s.printed_total'],
    ptcgoCode: ["s.attributes->>'ptcgoCode'"],
  },
  card: {
    id: ['c.external_key'],
    name: ['c.name'],
    number: ["NULLIF(substring(c.collector_number FROM '\\d+'), '')::numeric", 'c.collector_number'],
    rarity: ['c.rarity'],
    artist: ['c.artist'],
    supertype: ['c.card_type'],
    hp: [`CASE WHEN ${attr('hp')} ~ '^[0-9]+$' THEN (${attr('hp')})::int END`],
    nationalPokedexNumbers: ["(c.attributes->'nationalPokedexNumbers'->>0)::int"],
    evolvesFrom: [attr('evolvesFrom')],
    'set.id': ['s.external_key'],
    'set.name': ['s.name'],
    'set.series': ['s.series'],
    'set.releaseDate': ['s.release_date'],
    'set.total': ['s.total_cards'],
    'set.printedTotal': ['s.printed_total'],
  },
};

const NUMBER = /^-?\d+(\.\d+)?$/;
const regexEscape = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
// A word matches whole words of the value, as pokemontcg.io's tokenised search does: "charizard"
// finds "Dark Charizard" and "Charizard ex", not "Charizards".
const EDGE_BEFORE = '(^|[^[:alnum:]])';
const EDGE_AFTER = '($|[^[:alnum:]])';
function pattern(value: QValue): string {
  if (value.type === 'wildcard') {
    const body = value.text
      .split(/([*?])/)
      .map((part) => (part === '*' ? '[^[:space:]]*' : part === '?' ? '[^[:space:]]' : regexEscape(part)))
      .join('');
    return `${EDGE_BEFORE}${body}${EDGE_AFTER}`;
  }
  const words = value.text.trim().split(/\s+/).filter(Boolean).map(regexEscape);
  return `${EDGE_BEFORE}${words.join('[^[:alnum:]]+')}${EDGE_AFTER}`;
}

// Accents fold away on both sides, as in pokemontcg.io's search: supertype:pokemon finds "Pokémon".
const ACCENTED = 'áàâäãåéèêëíìîïóòôöõúùûüçñ';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucn';
const folded = (x: string) => `translate(lower(${x}), '${ACCENTED}', '${PLAIN}')`;
const fold = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

export type CompiledQ = { where: string; params: unknown[] };

/**
 * Compiles q for cards or sets. Parameters are numbered from `firstParam` (the query file's own
 * come first). Throws QFieldError for an unknown field or a bound the field cannot compare.
 */
export function compileQ(tree: QNode, scope: 'card' | 'set', firstParam: number): CompiledQ {
  const params: unknown[] = [];
  const param = (value: unknown, cast = '') => {
    params.push(value);
    return `$${firstParam + params.length - 1}${cast}`;
  };
  const fields = scope === 'card' ? CARD_FIELDS : SET_FIELDS;

  const fieldOf = (path: string[]): Field => {
    const name = path.join('.');
    const legalities = scope === 'card' && path[0] === 'set' ? path.slice(1) : path;
    if (legalities.length === 2 && legalities[0] === 'legalities') {
      const base = scope === 'card' && path[0] === 'set' ? LEGALITIES.set : LEGALITIES[scope];
      return { kind: 'one', sql: `${base}->>${param(legalities[1], '::text')}` };
    }
    const field = fields[name];
    if (!field) throw new QFieldError(`unknown field ${name}`);
    return field;
  };

  // A condition on one value x (SQL text); null never matches, so negation keeps the row.
  const onValue = (node: Extract<QNode, { kind: 'match' | 'range' }>, field: { numeric?: boolean }, x: string): string => {
    if (node.kind === 'range') {
      const numeric = field.numeric && [node.lo, node.hi].every((b) => b === null || NUMBER.test(b));
      if (!numeric && field.numeric && [node.lo, node.hi].some((b) => b !== null && !NUMBER.test(b)))
        throw new QFieldError(`${node.field.join('.')} ranges take numbers`);
      const v = numeric ? `(CASE WHEN ${x} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (${x})::numeric END)` : `(${x}) COLLATE "C"`;
      // A bound goes to PostgreSQL as the digits given (NUMBER admits only numeric literals), never
      // through a JavaScript number, which would round 1.00000000000000001 to 1 and widen the range.
      const bound = (b: string) => param(b, numeric ? '::numeric' : '::text');
      const parts: string[] = [];
      if (node.lo !== null) parts.push(`${v} ${node.loInclusive ? '>=' : '>'} ${bound(node.lo)}`);
      if (node.hi !== null) parts.push(`${v} ${node.hiInclusive ? '<=' : '<'} ${bound(node.hi)}`);
      return parts.length ? parts.join(' AND ') : `${x} IS NOT NULL`;
    }
    if (node.exact) return `${folded(x)} = ${param(fold(node.value.text), '::text')}`;
    if (field.numeric && node.value.type === 'word' && NUMBER.test(node.value.text)) return `${x} = ${param(node.value.text, '::text')}`;
    return `${folded(x)} ~ ${param(pattern({ ...node.value, text: fold(node.value.text) }), '::text')}`;
  };

  const onPrice = (node: Extract<QNode, { kind: 'match' | 'range' }>, f: Extract<Field, { kind: 'price' }>): string => {
    let amount: string;
    if (node.kind === 'range') {
      if ([node.lo, node.hi].some((b) => b !== null && !NUMBER.test(b)))
        throw new QFieldError(`${node.field.join('.')} ranges take numbers`);
      const parts: string[] = ['TRUE'];
      if (node.lo !== null) parts.push(`l.amount ${node.loInclusive ? '>=' : '>'} ${param(node.lo, '::numeric')}`);
      if (node.hi !== null) parts.push(`l.amount ${node.hiInclusive ? '<=' : '<'} ${param(node.hi, '::numeric')}`);
      amount = parts.join(' AND ');
    } else {
      if (!NUMBER.test(node.value.text)) throw new QFieldError(`${node.field.join('.')} is a price: give a number or a [a TO b] range`);
      amount = `l.amount = ${param(node.value.text, '::numeric')}`;
    }
    const finish = f.finish ? `v.finish = ${param(f.finish, '::text')}` : `v.finish <> ${param(f.notFinish, '::text')}`;
    const run = f.printRun ? ` AND p.print_run = ${param(f.printRun, '::text')}` : '';
    return (
      `EXISTS (SELECT 1 FROM printings p JOIN variants v ON v.printing_id = p.id JOIN variant_prices_latest l ON l.variant_id = v.id` +
      ` WHERE p.card_id = c.id AND ${finish}${run} AND l.source = ${param(f.source, '::text')}` +
      ` AND l.price_type = ${param(f.priceType, '::text')} AND l.grading_company = 'raw' AND ${amount})`
    );
  };

  const walk = (node: QNode): string => {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${node.nodes.map(walk).join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `NOT ${walk(node.node)}`;
      default: {
        const field = fieldOf(node.field);
        if (field.kind === 'price') return onPrice(node, field);
        if (field.kind === 'one') return `coalesce(${onValue(node, field, field.sql)}, false)`;
        return `EXISTS (SELECT 1 FROM (${field.sql}) AS v(x) WHERE ${onValue(node, field, 'v.x')})`;
      }
    }
  };
  return { where: walk(tree), params };
}

/** orderBy as ORDER BY terms (each ends with a comma: the query file appends its tie-breakers). */
export function compileOrderBy(order: { field: string; descending: boolean }[], scope: 'card' | 'set'): string {
  return order
    .map(({ field, descending }) => {
      const exprs = (SORTS[scope] as Record<string, string[]>)[field];
      if (!exprs) throw new QFieldError(`cannot order by ${field}; orderable: ${Object.keys(SORTS[scope]).join(', ')}`);
      return exprs.map((e) => `${e} ${descending ? 'DESC NULLS LAST' : 'ASC NULLS LAST'}, `).join('');
    })
    .join('');
}

const Page = z.object({ total: z.number().int(), id: z.number().int() });
/** The page of Pokémon cards a compiled q selects (params: limit, offset, then q's), with the match count. */
export const pokemontcgCardsSearch = pgComposedQuery('pokemontcg/pokemontcg_cards_search', Page);
/** The page of Pokémon sets a compiled q selects, with the match count. */
export const pokemontcgSetsSearch = pgComposedQuery('pokemontcg/pokemontcg_sets_search', Page);

const SetRow = z.object({
  set_id: z.number().int(),
  id: z.string(),
  name: z.string(),
  series: z.string().nullable(),
  printed_total: z.number().int().nullable(),
  total: z.number().int(),
  attributes: z.record(z.string(), z.unknown()),
  release_date: z.string().nullable(),
  updated_at: z.string(),
  logo_url: z.string().nullable(),
  symbol_url: z.string().nullable(),
});
export type PokemontcgSetRow = z.output<typeof SetRow>;
/** Pokémon sets by Holo id, or by pokemontcg.io id. */
export const pokemontcgSets = pgQuery<[setIds: number[] | null, upstreamIds: string[] | null], typeof SetRow>(
  'pokemontcg/pokemontcg_sets',
  SetRow,
);

const CardRow = z.object({
  card_id: z.number().int(),
  set_id: z.number().int(),
  id: z.string(),
  name: z.string(),
  supertype: z.string().nullable(),
  subtypes: z.array(z.string()),
  number: z.string(),
  artist: z.string().nullable(),
  rarity: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  legalities: z.record(z.string(), z.string()),
  image_kinds: z.array(z.string()),
});
export type PokemontcgCardRow = z.output<typeof CardRow>;
/** Pokémon cards by Holo id, or by pokemontcg.io id. */
export const pokemontcgCards = pgQuery<[cardIds: number[] | null, upstreamIds: string[] | null], typeof CardRow>(
  'pokemontcg/pokemontcg_cards',
  CardRow,
);

const PriceRow = z.object({
  card_id: z.number().int(),
  finish: z.string(),
  print_run: z.string(),
  source: z.string(),
  price_type: z.string(),
  amount: z.number(),
  as_of: z.string(),
});
export type PokemontcgPriceRow = z.output<typeof PriceRow>;
/** The latest raw TCGplayer and Cardmarket prices of cards' variants. */
export const pokemontcgPrices = pgQuery<[cardIds: number[]], typeof PriceRow>('pokemontcg/pokemontcg_prices', PriceRow);

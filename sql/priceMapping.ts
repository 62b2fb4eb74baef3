// What mapping feed rows to variants asks of the catalogue (ingest/normalise/mapVariants.ts).
import { z } from 'zod';
import { col, pgQuery, pgStatement } from './typedQuery.js';

const int = z.number().int();

const HintMatch = z.object({ i: col.number, card_id: int });
/** Cards named by (game, set name, collector number) hints; `i` is the hint's 1-based position. */
export const cardsByHints = pgQuery<[games: string[], setNames: string[], numbers: string[]], typeof HintMatch>(
  'priceMapping/cards_by_set_name_and_number',
  HintMatch,
);
/** Stores card-level cross references learnt from hints. */
export const linkCrossRefs = pgStatement<[cardIds: number[], refKeys: string[], refValues: string[]]>('priceMapping/cross_refs_link_cards');

const RefHit = z.object({ ref_kind: z.string(), ref_value: z.string(), card_id: int, printing_id: int.nullable() });
export type RefHit = z.infer<typeof RefHit>;
/** Cards by pokemontcg.io ids (keys "pokemontcg:<id>"), as hits. */
export const cardsByPokemontcgId = pgQuery<[externalKeys: string[]], typeof RefHit>('priceMapping/cards_by_pokemontcg_id', RefHit);
/** Cross references of one kind with any of the values. */
export const crossRefHits = pgQuery<[refKind: string, refValues: string[]], typeof RefHit>('priceMapping/cross_ref_hits', RefHit);

const VariantRow = z.object({
  card_id: int,
  game: z.string(),
  printing_id: int,
  print_run: z.string(),
  variant_id: int,
  finish: z.string(),
});
export type VariantRow = z.infer<typeof VariantRow>;
/** Every variant of the cards, in printing order. */
export const variantsOfCards = pgQuery<[cardIds: number[]], typeof VariantRow>('priceMapping/variants_of_cards', VariantRow);

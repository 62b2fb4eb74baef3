// Decks (spec: "Deck", "Create deck", "Add card to deck", "Import deck from text"; issue 16 §4).
import { freeTextDocument, intParam, text, z, PG_INT_MAX } from './common.js';

export const DECK_SECTIONS = ['main', 'sideboard', 'commander'] as const;
export const DECK_LIMITS = { perUser: 200, cardsPerDeck: 500, importChars: 50_000, importLines: 1_000, maxQuantity: 999 } as const;

const slug = z.string().regex(/^[a-z0-9-]{1,40}$/);

export const DeckCard = z
  .object({
    card_id: z.number().int(),
    card_name: z.string(),
    set_name: z.string(),
    section: z.enum(DECK_SECTIONS),
    quantity: z.number().int(),
    unit_value: z.number().nullable().openapi({ description: 'the card’s reference market price, USD' }),
  })
  .openapi('DeckCard');
export const DeckSummary = z
  .object({
    id: z.number().int(),
    owner: z.string(),
    name: z.string(),
    tcg_slug: z.string(),
    format: z.string().nullable(),
    is_public: z.boolean(),
    card_count: z.number().int(),
    value: z.number().openapi({ description: 'USD: Σ quantity × reference price (cards without one count 0)' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('DeckSummary');
export const Deck = DeckSummary.extend({ cards: z.array(DeckCard) }).openapi('Deck');
export const DeckList = z.object({ items: z.array(DeckSummary) }).openapi('DeckList');

export const CreateDeckBody = z
  .strictObject({
    name: text({ max: 100 }),
    tcg_slug: slug,
    format: text({ max: 40 }).optional(),
    is_public: z.boolean().default(false),
  })
  .openapi('CreateDeck');
export const AddDeckCardBody = z
  .strictObject({
    card_id: z.number().int().positive().max(PG_INT_MAX),
    quantity: z.number().int().min(1).max(DECK_LIMITS.maxQuantity).default(1),
    section: z.enum(DECK_SECTIONS).default('main'),
  })
  .openapi('AddDeckCard');
export const ImportDeckBody = z
  .strictObject({
    tcg_slug: slug,
    // Line breaks and tabs are the format; PostgreSQL refuses the NUL a card name would carry.
    text: freeTextDocument({ max: DECK_LIMITS.importChars }),
    name: text({ max: 100 }).optional(),
    format: text({ max: 40 }).optional(),
    is_public: z.boolean().default(false),
  })
  .openapi('ImportDeck', {
    description:
      'One card per line: "4 Lightning Bolt", "1x Charizard (BS) 4", "2 Sol Ring [C21]" (a set code in () or [], then optionally the collector number); section headers "Main", "Sideboard", "Commander" (a trailing colon is fine); blank lines and lines starting with # or // are skipped.',
  });
export const UnresolvedLine = z.object({ line: z.number().int(), text: z.string(), reason: z.string() }).openapi('UnresolvedDeckLine');
export const DeckImported = z.object({ deck: Deck, unresolved: z.array(UnresolvedLine) }).openapi('DeckImported');

export const DeckIdParams = z.strictObject({ deck_id: intParam({ min: 1, max: PG_INT_MAX }) });
export const DeckCardParams = z.strictObject({
  deck_id: intParam({ min: 1, max: PG_INT_MAX }),
  card_id: intParam({ min: 1, max: PG_INT_MAX }),
});
export const DeckCardQuery = z.strictObject({ section: z.enum(DECK_SECTIONS).optional() });
export const PublicDecksQuery = z.strictObject({
  tcg_slug: slug.optional(),
  limit: intParam({ min: 1, max: 100 }).default(50),
  offset: intParam({ min: 0, max: 100_000 }).default(0),
});

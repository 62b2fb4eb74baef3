// Decks (issue 16 §4): one typed function per query file.
import { z } from 'zod';
import { DeckCard, DeckSummary } from '../schemas/decks.js';
import { pgQuery, pgStatement, rows } from './typedQuery.js';

/** A new deck of a game; its id, none when the game is unknown. */
export const createDeck = pgQuery<
  [userId: number, tcgSlug: string, name: string, format: string | null, isPublic: boolean],
  typeof rows.id
>('decks/deck_create', rows.id);
const DeckRow = DeckSummary.extend({ user_id: z.number().int() });
export type DeckRow = z.infer<typeof DeckRow>;
/** Decks with counts and value: by ids, a user's own, or the public ones (of a game). */
export const deckRecords = pgQuery<
  [deckIds: number[] | null, ownerId: number | null, publicOnly: boolean, tcgSlug: string | null, limit: number, offset: number],
  typeof DeckRow
>('decks/deck_records', DeckRow);
/** A deck's cards by section and name. */
export const deckCardsOf = pgQuery<[deckId: number], typeof DeckCard>('decks/deck_cards_of', DeckCard);
const LockedDeck = z.object({ id: z.number().int(), user_id: z.number().int(), game_id: z.number().int() });
/** A deck's owner and game, locked until the transaction ends. */
export const lockDeck = pgQuery<[deckId: number], typeof LockedDeck>('decks/deck_lock', LockedDeck);
/** Adds cards to sections of a deck (parallel arrays), adding to quantities already there. */
export const addDeckCards =
  pgStatement<[deckId: number, cardIds: number[], sections: string[], quantities: number[]]>('decks/deck_add_cards');
/** Takes a card out of a deck (one section, or all); how many rows. */
export const removeDeckCard = pgQuery<[deckId: number, cardId: number, section: string | null], typeof rows.count>(
  'decks/deck_remove_card',
  rows.count,
);
/** Deletes a user's deck; its id when it was theirs. */
export const deleteDeck = pgQuery<[deckId: number, userId: number], typeof rows.id>('decks/deck_delete', rows.id);
const CardGame = z.object({ card_id: z.number().int(), game_id: z.number().int() });
/** The game of each given card. */
export const cardGames = pgQuery<[cardIds: number[]], typeof CardGame>('decks/deck_card_games', CardGame);
/** How many decks a user has. */
export const countDecks = pgQuery<[userId: number], typeof rows.count>('decks/deck_count', rows.count);

// Decks (spec: "Deck"; issue 16 §4): an owner creates, fills and deletes them; anyone reads a
// public one, nobody else a private one (404, as if it did not exist). A deck holds cards of its
// own game, valued at each card's reference price.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError, NotFound } from '../../schemas/errors.js';
import { DECK_LIMITS, type CreateDeckBody, type Deck, type DeckSummary } from '../../schemas/decks.js';
import { lockAccount } from '../../sql/alerts.js';
import * as q from '../../sql/decks.js';

type DeckOut = z.infer<typeof Deck>;
type Section = 'main' | 'sideboard' | 'commander';
export type DeckLine = { card_id: number; section: Section; quantity: number };

const summary = ({ user_id: _owner, ...deck }: q.DeckRow): z.infer<typeof DeckSummary> => deck;

/** A deck as a reader sees it, when they may: its owner always, anyone else when it is public. */
export async function readDeck(db: Db, readerId: number | null, deckId: number): Promise<DeckOut> {
  const [deck] = await q.deckRecords(db, [deckId], null, false, null, 1, 0);
  if (!deck || (!deck.is_public && deck.user_id !== readerId)) throw new NotFound('Deck');
  return { ...summary(deck), cards: await q.deckCardsOf(db, deckId) };
}

export async function ownDecks(db: Db, userId: number): Promise<{ items: z.infer<typeof DeckSummary>[] }> {
  return { items: (await q.deckRecords(db, null, userId, false, null, DECK_LIMITS.perUser, 0)).map(summary) };
}

export async function publicDecks(
  db: Db,
  query: { tcg_slug?: string; limit: number; offset: number },
): Promise<{ items: z.infer<typeof DeckSummary>[] }> {
  return { items: (await q.deckRecords(db, null, null, true, query.tcg_slug ?? null, query.limit, query.offset)).map(summary) };
}

/** A new deck, with lines already resolved to cards of its game (an import), in one transaction. */
export async function createDeck(db: Db, userId: number, body: z.output<typeof CreateDeckBody>, lines: DeckLine[] = []): Promise<DeckOut> {
  const deckId = await db.transaction(async (tx) => {
    // Creations of one account wait for each other here, so two at the cap cannot both pass it.
    await lockAccount(tx, userId);
    const [counted] = await q.countDecks(tx, userId);
    if (counted!.n >= DECK_LIMITS.perUser) throw new DomainError('conflict', `at most ${DECK_LIMITS.perUser} decks per account`);
    const [created] = await q.createDeck(tx, userId, body.tcg_slug, body.name, body.format ?? null, body.is_public);
    if (!created) throw new NotFound(`Game ${body.tcg_slug}`);
    if (lines.length) await addLines(tx, created.id, lines);
    return created.id;
  });
  return readDeck(db, userId, deckId);
}

async function addLines(tx: Db, deckId: number, lines: DeckLine[]): Promise<void> {
  // One row per card and section: a list may name a card on several lines (one INSERT … ON
  // CONFLICT cannot touch a row twice).
  const merged = new Map<string, DeckLine>();
  for (const l of lines) {
    const key = `${l.section}|${l.card_id}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, quantity: Math.min(seen.quantity + l.quantity, DECK_LIMITS.maxQuantity) } : l);
  }
  const rows = [...merged.values()];
  await q.addDeckCards(
    tx,
    deckId,
    rows.map((l) => l.card_id),
    rows.map((l) => l.section),
    rows.map((l) => l.quantity),
  );
  const cards = await q.deckCardsOf(tx, deckId);
  if (cards.length > DECK_LIMITS.cardsPerDeck)
    throw new DomainError('conflict', `a deck holds at most ${DECK_LIMITS.cardsPerDeck} different cards`);
}

/** Locks an own deck; another user's is not found. */
async function lockOwn(tx: Db, userId: number, deckId: number) {
  const [deck] = await q.lockDeck(tx, deckId);
  if (!deck || deck.user_id !== userId) throw new NotFound('Deck');
  return deck;
}

export async function addCard(db: Db, userId: number, deckId: number, line: DeckLine): Promise<DeckOut> {
  await db.transaction(async (tx) => {
    const deck = await lockOwn(tx, userId, deckId);
    const [card] = await q.cardGames(tx, [line.card_id]);
    if (!card) throw new NotFound(`Card ${line.card_id}`);
    if (card.game_id !== deck.game_id) throw new DomainError('invalid', `card ${line.card_id} is of another game than the deck`);
    await addLines(tx, deckId, [line]);
  });
  return readDeck(db, userId, deckId);
}

export async function removeCard(db: Db, userId: number, deckId: number, cardId: number, section: Section | undefined): Promise<DeckOut> {
  await db.transaction(async (tx) => {
    await lockOwn(tx, userId, deckId);
    const [removed] = await q.removeDeckCard(tx, deckId, cardId, section ?? null);
    if (removed!.n === 0) throw new NotFound('Card in this deck');
  });
  return readDeck(db, userId, deckId);
}

export async function deleteDeck(db: Db, userId: number, deckId: number): Promise<{ ok: true }> {
  if ((await q.deleteDeck(db, deckId, userId)).length === 0) throw new NotFound('Deck');
  return { ok: true as const };
}

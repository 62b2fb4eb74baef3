// Decks (spec: "Create deck", "Add card to deck", "Import deck from text"; paths are ours:
// POST/GET /decks, GET /decks/public, POST /decks/import, GET/DELETE /decks/{deck_id},
// POST /decks/{deck_id}/cards, DELETE /decks/{deck_id}/cards/{card_id}).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { addCard, createDeck, deleteDeck, ownDecks, publicDecks, readDeck, removeCard } from '../decks/decks.js';
import { importDeck } from '../decks/deckText.js';
import {
  AddDeckCardBody,
  CreateDeckBody,
  Deck,
  DeckCardParams,
  DeckCardQuery,
  DeckIdParams,
  DeckImported,
  DeckList,
  ImportDeckBody,
  PublicDecksQuery,
} from '../../schemas/decks.js';
import { Ok } from '../../schemas/auth.js';

const tags = ['decks'];

export const deckRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/decks',
    summary: 'Create a deck',
    description: 'Unknown game: 404; at most 200 decks per account: 409.',
    tags,
    access: 'auth',
    body: CreateDeckBody,
    response: Deck,
    status: 201,
    errors: [404, 409],
    handler: async ({ body, caller }) => createDeck(deps.db, caller.account.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/decks',
    summary: 'Own decks, newest first, with card counts and values',
    tags,
    access: 'auth',
    response: DeckList,
    handler: async ({ caller }) => ownDecks(deps.db, caller.account.id),
  }),
  defineRoute({
    method: 'get',
    path: '/decks/public',
    summary: 'Public decks, newest first (of one game with tcg_slug)',
    tags,
    query: PublicDecksQuery,
    response: DeckList,
    handler: async ({ query }) => publicDecks(deps.db, query),
  }),
  defineRoute({
    method: 'post',
    path: '/decks/import',
    summary: 'Create a deck from pasted text',
    description:
      'Lines that resolve to cards of the game make the deck (in one transaction); the others come back in `unresolved` with their line number and reason. Unknown game: 404.',
    tags,
    access: 'auth',
    body: ImportDeckBody,
    response: DeckImported,
    status: 201,
    errors: [400, 404, 409],
    handler: async ({ body, caller }) => importDeck(deps.db, caller.account.id, body),
  }),
  defineRoute({
    method: 'get',
    path: '/decks/{deck_id}',
    summary: 'A deck with its cards: own, or anyone’s public one',
    tags,
    params: DeckIdParams,
    response: Deck,
    errors: [404],
    handler: async ({ params, caller }) => readDeck(deps.db, caller.account?.id ?? null, params.deck_id),
  }),
  defineRoute({
    method: 'delete',
    path: '/decks/{deck_id}',
    summary: 'Delete an own deck',
    tags,
    access: 'auth',
    params: DeckIdParams,
    response: Ok,
    errors: [404],
    handler: async ({ params, caller }) => deleteDeck(deps.db, caller.account.id, params.deck_id),
  }),
  defineRoute({
    method: 'post',
    path: '/decks/{deck_id}/cards',
    summary: 'Add a card to an own deck',
    description: 'More of a card already in that section adds to its quantity (at most 999). A card of another game: 400.',
    tags,
    access: 'auth',
    params: DeckIdParams,
    body: AddDeckCardBody,
    response: Deck,
    errors: [400, 404, 409],
    handler: async ({ params, body, caller }) => addCard(deps.db, caller.account.id, params.deck_id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/decks/{deck_id}/cards/{card_id}',
    summary: 'Take a card out of an own deck (of one section with ?section=)',
    tags,
    access: 'auth',
    params: DeckCardParams,
    query: DeckCardQuery,
    response: Deck,
    errors: [404],
    handler: async ({ params, query, caller }) => removeCard(deps.db, caller.account.id, params.deck_id, params.card_id, query.section),
  }),
];

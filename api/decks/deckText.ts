// Decks as players paste them (spec: "Import deck from text"): one card per line, a count first
// ("4 Lightning Bolt", "1x Charizard (BS) 4", "2 Sol Ring [C21]": a set code in () or [], then
// optionally the collector number), section headers ("Sideboard", "Commander", "Main", "Deck",
// with or without a colon), blank lines and comments (# or //) skipped. Names are resolved to
// cards of the deck's game by the v2 surface's resolver; what does not resolve comes back with
// its line number and reason, and the deck is made of the rest in one transaction.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { DomainError } from '../../schemas/errors.js';
import { DECK_LIMITS, type ImportDeckBody, type UnresolvedLine } from '../../schemas/decks.js';
import { resolveCards } from '../v2/catalogue.js';
import { createDeck, type DeckLine } from './decks.js';

type Section = DeckLine['section'];
export type ParsedLine = { line: number; text: string; quantity: number; name: string; set?: string; number?: string; section: Section };

const HEADER = /^(main(?:board)?|deck|side(?:board)?|commander)\s*:?$/i;
const CARD = /^(\d{1,4})\s*x?\s+(.+?)(?:\s+[([]([A-Za-z0-9-]{1,12})[)\]](?:\s+([A-Za-z0-9-]{1,12}))?)?$/i;

const sectionOf = (header: string): Section => {
  const h = header.toLowerCase();
  return h.startsWith('side') ? 'sideboard' : h.startsWith('commander') ? 'commander' : 'main';
};

/** The card lines of a pasted deck, and the lines that are none of card, header, blank or comment. */
export function parseDeckText(text: string): { cards: ParsedLine[]; unreadable: z.infer<typeof UnresolvedLine>[] } {
  const lines = text.split(/\r?\n/);
  if (lines.length > DECK_LIMITS.importLines) throw new DomainError('invalid', `a deck text has at most ${DECK_LIMITS.importLines} lines`);
  let section: Section = 'main';
  const cards: ParsedLine[] = [];
  const unreadable: z.infer<typeof UnresolvedLine>[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('//')) return;
    const header = HEADER.exec(line);
    if (header) {
      section = sectionOf(header[1]!);
      return;
    }
    const card = CARD.exec(line);
    const quantity = card ? Number(card[1]) : 0;
    if (!card || quantity < 1 || quantity > DECK_LIMITS.maxQuantity) {
      unreadable.push({ line: i + 1, text: line, reason: `not "<count> <card name>" with a count of 1 to ${DECK_LIMITS.maxQuantity}` });
      return;
    }
    cards.push({ line: i + 1, text: line, quantity, name: card[2]!.trim(), set: card[3], number: card[4], section });
  });
  return { cards, unreadable };
}

export async function importDeck(db: Db, userId: number, body: z.output<typeof ImportDeckBody>) {
  const { cards, unreadable } = parseDeckText(body.text);
  const unresolved = [...unreadable];
  const lines: DeckLine[] = [];
  for (const c of cards) {
    const found = await resolveCards(db, { game: body.tcg_slug, name: c.name, set: c.set, number: c.number });
    if (found.length === 0) {
      const where = [c.set && `set ${c.set}`, c.number && `number ${c.number}`].filter(Boolean).join(', ');
      unresolved.push({ line: c.line, text: c.text, reason: `no ${body.tcg_slug} card named "${c.name}"${where ? ` (${where})` : ''}` });
      continue;
    }
    // The newest printing of that name (the resolver's first), as a player's list means it.
    lines.push({ card_id: found[0]!.id, section: c.section, quantity: c.quantity });
  }
  const name = body.name ?? `Imported deck (${lines.reduce((n, l) => n + l.quantity, 0)} cards)`;
  const deck = await createDeck(db, userId, { name, tcg_slug: body.tcg_slug, format: body.format, is_public: body.is_public }, lines);
  return { deck, unresolved: unresolved.sort((a, b) => a.line - b.line) };
}

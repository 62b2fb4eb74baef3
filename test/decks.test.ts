// Decks over HTTP on the small demo's real catalogue: create, fill by section, value from the
// reference prices, public and private reading, ownership, and the import of a pasted deck whose
// unresolved lines come back with their line numbers while the rest makes the deck.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { DECK_LIMITS } from '../schemas/decks.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let owner: KeyedAccount;
let other: KeyedAccount;
type Json = Record<string, any>;
/** Pokémon cards of the demo with a reference price, their set code and number. */
let pokemon: { id: number; name: string; set_code: string; number: string; price: number }[];
let otherGameCard: number;

const call = callerOf(() => stack);

before(async () => {
  stack = await startStack({ demo: 'small' });
  owner = await accountWithKey(stack, 'deckbuilder', 'enterprise');
  other = await accountWithKey(stack, 'otherbuilder', 'enterprise');
  // Names that name one card in the game, so that the resolver's choice is the card itself.
  const { rows } = await stack.stores.pg.pool.query(
    `SELECT c.id, c.name, s.code AS set_code, c.collector_number AS number, b.best_price::float8 AS price
     FROM cards c JOIN games g ON g.id = c.game_id JOIN sets s ON s.id = c.set_id JOIN card_best_prices b ON b.card_id = c.id
     WHERE g.slug = 'pokemon' AND s.code IS NOT NULL AND c.name ~ '^[A-Za-z][A-Za-z '']+$'
       AND (SELECT count(*) FROM cards o WHERE o.game_id = c.game_id AND lower(o.name) = lower(c.name)) = 1
     ORDER BY c.id LIMIT 4`,
  );
  pokemon = rows;
  assert.equal(pokemon.length, 4);
  otherGameCard = (
    await stack.stores.pg.pool.query(`SELECT c.id FROM cards c JOIN games g ON g.id = c.game_id WHERE g.slug <> 'pokemon' LIMIT 1`)
  ).rows[0].id;
});
after(async () => {
  await stack?.close();
});

const cents = (n: number) => Math.round(n * 100) / 100;
const byCard = (x: (number | string)[], y: (number | string)[]) => Number(x[0]) - Number(y[0]);

describe('decks', () => {
  it('are created, filled by section and valued at the cards’ reference prices; only the owner changes them', async () => {
    assert.equal((await call(null, 'POST', '/decks', { name: 'x', tcg_slug: 'pokemon' })).status, 401);
    assert.equal((await call(owner, 'POST', '/decks', { name: 'x', tcg_slug: 'no-such-game' })).status, 404);
    assert.equal((await call(owner, 'POST', '/decks', { name: '', tcg_slug: 'pokemon' })).status, 422);
    const created = await call(owner, 'POST', '/decks', { name: 'Lightning', tcg_slug: 'pokemon', format: 'standard' });
    assert.equal(created.status, 201);
    assert.deepEqual(
      [created.body.owner, created.body.is_public, created.body.card_count, created.body.value, created.body.cards],
      ['deckbuilder', false, 0, 0, []],
    );
    const id = created.body.id;
    const [a, b] = pokemon;
    await call(owner, 'POST', `/decks/${id}/cards`, { card_id: a!.id, quantity: 3 });
    await call(owner, 'POST', `/decks/${id}/cards`, { card_id: a!.id });
    const filled = await call(owner, 'POST', `/decks/${id}/cards`, { card_id: b!.id, section: 'sideboard', quantity: 2 });
    assert.deepEqual(
      filled.body.cards.map((c: Json) => [c.card_id, c.section, c.quantity]),
      [
        [a!.id, 'main', 4],
        [b!.id, 'sideboard', 2],
      ],
    );
    assert.equal(filled.body.card_count, 6);
    assert.equal(filled.body.value, cents(a!.price * 4 + b!.price * 2));
    const foreign = await call(owner, 'POST', `/decks/${id}/cards`, { card_id: otherGameCard });
    assert.equal(foreign.status, 400, 'a card of another game');
    assert.equal((await call(owner, 'POST', `/decks/${id}/cards`, { card_id: a!.id, section: 'maybe' })).status, 422);

    // Private: only its owner reads or changes it.
    assert.equal((await call(other, 'GET', `/decks/${id}`)).status, 404);
    assert.equal((await call(null, 'GET', `/decks/${id}`)).status, 404);
    assert.equal((await call(other, 'POST', `/decks/${id}/cards`, { card_id: a!.id })).status, 404);
    assert.equal((await call(other, 'DELETE', `/decks/${id}/cards/${a!.id}`)).status, 404);
    assert.equal((await call(other, 'DELETE', `/decks/${id}`)).status, 404);
    assert.deepEqual((await call(other, 'GET', '/decks')).body, { items: [] });

    const removed = await call(owner, 'DELETE', `/decks/${id}/cards/${b!.id}?section=sideboard`);
    assert.deepEqual(
      removed.body.cards.map((c: Json) => c.card_id),
      [a!.id],
    );
    assert.equal((await call(owner, 'DELETE', `/decks/${id}/cards/${b!.id}`)).status, 404);
    assert.deepEqual((await call(owner, 'DELETE', `/decks/${id}`)).body, { ok: true });
    assert.equal((await call(owner, 'GET', `/decks/${id}`)).status, 404);
  });

  it('keeps the cap of decks per account when creations race', async () => {
    const racer = await accountWithKey(stack, 'deckracer', 'enterprise');
    // One short of the cap, then six creations at once: exactly one gets the last place.
    await stack.stores.pg.pool.query(
      `INSERT INTO decks (user_id, game_id, name, is_public)
       SELECT $1, g.id, 'filler ' || n, false FROM games g, generate_series(1, $2::int - 1) n WHERE g.slug = 'pokemon'`,
      [racer.user.id, DECK_LIMITS.perUser],
    );
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(racer, 'POST', '/decks', { name: `racing ${i}`, tcg_slug: 'pokemon' })),
    );
    assert.deepEqual(
      results.map((r) => r.status).sort((a, b) => a - b),
      [201, 409, 409, 409, 409, 409],
    );
    const { rows } = await stack.stores.pg.pool.query('SELECT count(*)::int AS n FROM decks WHERE user_id = $1', [racer.user.id]);
    assert.equal(rows[0].n, DECK_LIMITS.perUser);
  });

  it('shows public decks to anyone and lists them by game', async () => {
    const shown = await call(owner, 'POST', '/decks', { name: 'Shared', tcg_slug: 'pokemon', is_public: true });
    await call(owner, 'POST', '/decks', { name: 'Secret', tcg_slug: 'pokemon' });
    assert.equal((await call(null, 'GET', `/decks/${shown.body.id}`)).body.name, 'Shared');
    const listed = await call(null, 'GET', '/decks/public?tcg_slug=pokemon');
    assert.deepEqual(
      listed.body.items.map((d: Json) => d.name),
      ['Shared'],
    );
    assert.deepEqual((await call(null, 'GET', '/decks/public?tcg_slug=magic')).body.items, []);
    assert.deepEqual(
      (await call(owner, 'GET', '/decks')).body.items.map((d: Json) => d.name),
      ['Secret', 'Shared'],
    );
  });

  it('imports a pasted deck: resolved lines make it, unresolved ones come back with their line and reason', async () => {
    const [a, b, c, d] = pokemon;
    const text = [
      '# my list',
      `4 ${a!.name}`,
      `2x ${b!.name} (${c!.set_code.toLowerCase() === b!.set_code.toLowerCase() ? 'ZZZ9' : c!.set_code}) 999`,
      `1x ${c!.name} (${c!.set_code}) ${c!.number}`,
      '3 Lightning Bolt',
      `1 ${a!.name}`, // the same card again adds to it
      '',
      'Sideboard:',
      `2 ${d!.name} [${d!.set_code}]`,
      'four of something',
    ].join('\n');
    const imported = await call(owner, 'POST', '/decks/import', { tcg_slug: 'pokemon', text, name: 'Pasted' });
    assert.equal(imported.status, 201);
    assert.deepEqual(
      imported.body.deck.cards.map((x: Json) => [x.card_id, x.section, x.quantity]).sort(byCard),
      [
        [a!.id, 'main', 5],
        [c!.id, 'main', 1],
        [d!.id, 'sideboard', 2],
      ].sort(byCard),
    );
    assert.deepEqual(
      imported.body.unresolved.map((u: Json) => u.line),
      [3, 5, 10],
    );
    assert.match(imported.body.unresolved[1]!.reason, /no pokemon card named "Lightning Bolt"/);
    assert.match(imported.body.unresolved[2]!.reason, /not "<count> <card name>"/);
    assert.equal((await call(owner, 'POST', '/decks/import', { tcg_slug: 'no-such-game', text: '1 X' })).status, 404);
    // The fixed path is not a deck id: GET of it is a wrong method, not a bad {deck_id}.
    const read = await fetch(`${stack.url}/decks/import`, { headers: owner.headers });
    assert.deepEqual([read.status, read.headers.get('allow')], [405, 'POST']);
    assert.equal((await call(owner, 'POST', '/decks/import', { tcg_slug: 'pokemon', text: '' })).status, 422);
  });
});

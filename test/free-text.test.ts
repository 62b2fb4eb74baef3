// Free text as people write it (issue 34 §2): a second paragraph in a private message, a listing
// description, a release note, a seller's bio and policies, a review, a bid's message and a
// report's details is accepted and read back as written; other control characters are still a 422;
// the verification page shows the description's line breaks (escaped) and the seller's display
// name. One rule for every free-text field: fast-check draws texts with and without control
// characters and every free-text field of a listing's seller answers the same.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let seller: KeyedAccount;
let buyer: KeyedAccount;
let admin: KeyedAccount;
let card: number;

const call = callerOf(() => stack);
const listingWith = async (description: string) =>
  call(seller, 'POST', '/seller/listings', { card_id: card, price: 5, condition: 'NM', description, accepts_offers: true });

before(async () => {
  stack = await startStack({ demo: 'none' });
  seller = await accountWithKey(stack, 'textseller', 'enterprise');
  buyer = await accountWithKey(stack, 'textbuyer', 'enterprise');
  admin = await accountWithKey(stack, 'textadmin', 'free', { admin: true });
  assert.equal((await call(seller, 'POST', '/seller/become', { display_name: 'Binder & Sleeve', country: 'DE' })).status, 201);
  card = Object.values(await createTestCards(stack.stores.pg.pool, 'text-test', ['quill'])).map((c) => c.card)[0]!;
});
after(async () => {
  await stack?.close();
});

describe('line breaks and tabs', () => {
  it('a private message "is it mint?\\nand sleeved?" is sent and read as written', async () => {
    const body = 'is it mint?\nand sleeved?';
    const sent = await call(buyer, 'POST', '/api/messages', { to_username: 'textseller', subject: 'Charizard', body });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const inbox = await call(seller, 'GET', '/api/messages');
    assert.equal(inbox.body.items[0]!.body, body);
  });

  it('a listing description "Pack fresh.\\nShipped in a toploader." is kept, and the verification page shows it on two lines', async () => {
    const description = 'Pack fresh.\nShipped in a toploader.\t<b>no</b>';
    const listing = await listingWith(description);
    assert.equal(listing.status, 201, JSON.stringify(listing.body));
    assert.equal(listing.body.description, description);
    const page = await fetch(`${stack.url}/verify/${listing.body.verification_code}`);
    const text = await page.text();
    assert.match(text, /<p>Pack fresh\.<br>\nShipped in a toploader\.\t&lt;b&gt;no&lt;\/b&gt;<\/p>/);
    assert.match(text, /listed by <strong>Binder &amp; Sleeve<\/strong> \(@textseller, active\)/);
    const record = await call(null, 'GET', `/api/verify/${listing.body.verification_code}`);
    assert.deepEqual([record.body.seller_display_name, record.body.description], ['Binder & Sleeve', description]);
  });

  it('a release note "Faster scans.\\nFixes…" is published', async () => {
    const notes = 'Faster scans.\nFixes…';
    const published = await call(admin, 'POST', '/api/admin/app/version', { platform: 'android', version: '3.1.0', release_notes: notes });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    assert.equal((await call(null, 'GET', '/api/app/latest?platform=android')).body.release_notes, notes);
  });

  it("a seller's bio and policies, a bid's message, a review and a report's details take paragraphs", async () => {
    const two = 'First paragraph.\r\n\r\nSecond paragraph.';
    const profile = await call(seller, 'PUT', '/seller/profile/extended', { bio: two, shipping_policy: two, return_policy: two });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    assert.deepEqual([profile.body.bio, profile.body.shipping_policy, profile.body.return_policy], [two, two, two]);
    const listing = await listingWith('x');
    const bid = await call(buyer, 'POST', `/seller/listings/${listing.body.id}/bid`, { amount: 4, message: two });
    assert.deepEqual([bid.status, bid.body.message], [201, two]);
    const report = await call(buyer, 'POST', '/api/reports', {
      target_type: 'listing',
      target_id: listing.body.id,
      reason: 'other',
      details: two,
    });
    assert.equal(report.status, 201, JSON.stringify(report.body));
  });
});

describe('other control characters', () => {
  it('are still refused in every free-text field, naming it', async () => {
    for (const bad of ['bell\u0007', 'nul\u0000', 'escape\u001b[31m', 'delete\u007f', 'form\u000cfeed']) {
      const message = await call(buyer, 'POST', '/api/messages', { to_username: 'textseller', body: bad });
      assert.deepEqual([message.status, message.body.detail[0].loc], [422, ['body', 'body']], JSON.stringify(bad));
      const listing = await listingWith(bad);
      assert.deepEqual([listing.status, listing.body.detail[0].loc], [422, ['body', 'description']]);
    }
    // A line break stays out of one-line fields: a subject, a display name.
    const subject = await call(buyer, 'POST', '/api/messages', { to_username: 'textseller', subject: 'a\nb', body: 'ok' });
    assert.deepEqual([subject.status, subject.body.detail[0].loc], [422, ['body', 'subject']]);
  });

  it('one rule for every free-text field (fast-check): accepted exactly when the only control characters are tabs and line breaks', async () => {
    const refused = (c: string) => (c.charCodeAt(0) < 0x20 && !'\t\n\r'.includes(c)) || c === '\u007f';
    const chars = fc.oneof(
      fc.constantFrom('\n', '\r', '\t', '\u0000', '\u0007', '\u000b', '\u001f', '\u007f'),
      fc.string({ maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(chars, { minLength: 1, maxLength: 12 }), async (parts) => {
        const text = `x${parts.join('')}x`;
        const expected = text.split('').some(refused) ? 422 : 200;
        const answers = await Promise.all([
          call(seller, 'PUT', '/seller/profile/extended', { bio: text }),
          call(seller, 'PUT', '/seller/profile/extended', { shipping_policy: text }),
          call(seller, 'PUT', '/seller/profile/extended', { return_policy: text }),
        ]);
        assert.deepEqual(
          answers.map((a) => a.status),
          [expected, expected, expected],
          JSON.stringify(text),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe('blank text (fuzzer seed 561896246: GET /api/price-intelligence/search?q=+ was a 422 the document did not state)', () => {
  // The field's pattern in /openapi.json, as a client's validator reads it.
  const documented = async (path: string, parameter: string) => {
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { parameters: { name: string; schema: { pattern?: string; maxLength: number } }[] } }>;
    };
    const schema = doc.paths[path]!.get.parameters.find((p) => p.name === parameter)!.schema;
    assert.ok(schema.pattern, `${path} ${parameter} states a pattern`);
    return { pattern: new RegExp(schema.pattern), maxLength: schema.maxLength };
  };

  it('a required text of spaces is refused as blank, and the document says it would be', async () => {
    const { pattern } = await documented('/api/price-intelligence/search', 'q');
    for (const blank of [' ', '\u00a0', ' \u3000\ufeff ']) {
      const search = await call(null, 'GET', `/api/price-intelligence/search?q=${encodeURIComponent(blank)}`);
      assert.deepEqual([search.status, search.body.detail[0].loc, search.body.detail[0].msg], [422, ['query', 'q'], 'must not be blank']);
      assert.equal(pattern.test(blank), false, `the document refuses ${JSON.stringify(blank)} too`);
    }
    const subject = await call(buyer, 'POST', '/api/messages', { to_username: 'textseller', body: '  \n\t ' });
    assert.deepEqual(
      [subject.status, subject.body.detail[0].loc, subject.body.detail[0].msg],
      [422, ['body', 'body'], 'must not be blank'],
    );
  });

  it('whatever the document accepts, the server accepts (fast-check over spaces, control characters and letters)', async () => {
    const { pattern, maxLength } = await documented('/api/price-intelligence/search', 'q');
    const chars = fc.constantFrom(' ', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028', '\t', '\n', '\u0001', 'a', 'é', '1', '%', '+');
    await fc.assert(
      fc.asyncProperty(fc.array(chars, { minLength: 1, maxLength: 8 }), async (parts) => {
        const q = parts.join('');
        fc.pre(pattern.test(q) && q.length <= maxLength);
        const search = await call(null, 'GET', `/api/price-intelligence/search?q=${encodeURIComponent(q)}`);
        assert.equal(search.status, 200, `${JSON.stringify(q)}: ${JSON.stringify(search.body)}`);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a username another account is named by (npm run fuzz as an administrator: POST /api/messages with to_username "\\u0000\\u0006" was a 500)', () => {
  it('holding a NUL or another control character is a 422 naming it, in a message and in the profile and reputation paths', async () => {
    for (const name of ['text\u0000seller', '\u0000\u0006', 'text\u0007seller']) {
      const sent = await call(buyer, 'POST', '/api/messages', { to_username: name, body: 'still available?' });
      assert.deepEqual([sent.status, sent.body.detail?.[0]?.loc], [422, ['body', 'to_username']], JSON.stringify(sent.body));
      for (const path of ['/users/{}', '/api/reputation/{}', '/api/users/{}/reputation']) {
        const read = await call(buyer, 'GET', path.replace('{}', encodeURIComponent(name)));
        assert.deepEqual([read.status, read.body.detail?.[0]?.loc], [422, ['path', 'username']], `${path}: ${JSON.stringify(read.body)}`);
      }
    }
  });

  it('a name nobody has is still a 404, and the seller’s own name is still found', async () => {
    assert.equal((await call(buyer, 'POST', '/api/messages', { to_username: 'nobody-here', body: 'hello' })).status, 404);
    assert.equal((await call(buyer, 'GET', '/api/reputation/nobody-here')).status, 404);
    assert.equal((await call(buyer, 'POST', '/api/messages', { to_username: 'textseller', body: 'still available?' })).status, 201);
    assert.equal((await call(buyer, 'GET', '/api/users/textseller/reputation')).status, 200);
  });
});

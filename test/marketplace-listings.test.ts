// Sellers and listings over HTTP: becoming a seller, listing, browsing, changing, withdrawing,
// renewing (idempotent, one winner among parallel renewals), fees, active sellers and verification
// codes; another seller's listing is refused and bad input changes nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { after, before, describe, it } from 'node:test';
import { FEES } from '../schemas/marketplace.js';
import { repoRoot } from '../sql/runtime/paths.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { createTestCards } from './support/catalogue.js';
import { callerOf } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { TemporalRig } from './support/temporal.js';

let stack: Stack;
let seller: KeyedAccount;
let rival: KeyedAccount;
let buyer: KeyedAccount;
let cards: number[];

type Json = Record<string, any>;
const call = callerOf(() => stack);

const listingBody = (card: number, price: number, extra: Json = {}) => ({ card_id: card, price, condition: 'NM', ...extra });

before(async () => {
  stack = await startStack({ demo: 'none' });
  // Enterprise keys: room in the per-minute limit for the parallel renewals.
  seller = await accountWithKey(stack, 'cardseller', 'enterprise');
  rival = await accountWithKey(stack, 'rivalseller', 'enterprise');
  buyer = await accountWithKey(stack, 'cardbuyer', 'enterprise');
  cards = Object.values(await createTestCards(stack.stores.pg.pool, 'market-test', ['alpha', 'beta', 'gamma'])).map((c) => c.card);
});
after(async () => {
  await stack?.close();
});

describe('sellers', () => {
  it('an account becomes a seller once, with a display name and an ISO country, and keeps an extended profile', async () => {
    assert.equal((await call(seller, 'GET', '/seller/profile')).status, 404);
    const bad = await call(seller, 'POST', '/seller/become', { display_name: 'Card Shop', country: 'Germany' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'country']);
    const became = await call(seller, 'POST', '/seller/become', { display_name: 'Card Shop', country: 'DE' });
    assert.equal(became.status, 201);
    assert.deepEqual([became.body.username, became.body.display_name, became.body.country], ['cardseller', 'Card Shop', 'DE']);
    assert.equal((await call(seller, 'POST', '/seller/become', { display_name: 'Again', country: 'FR' })).status, 409);
    const changed = await call(seller, 'PUT', '/seller/profile/extended', { bio: 'Vintage Pokémon', website: 'https://shop.example' });
    assert.equal(changed.status, 200);
    assert.deepEqual(
      [changed.body.bio, changed.body.website, changed.body.display_name],
      ['Vintage Pokémon', 'https://shop.example', 'Card Shop'],
    );
    const cleared = await call(seller, 'PUT', '/seller/profile/extended', { bio: '' });
    assert.equal(cleared.body.bio, null);
    const linked = await call(seller, 'POST', '/seller/marketplace-link', { username: 'CardShop_DE' });
    assert.equal(linked.body.marketplace_username, 'CardShop_DE');
    assert.equal((await call(seller, 'GET', '/auth/me')).body.is_seller, true);
    assert.equal((await call(buyer, 'PUT', '/seller/profile/extended', { bio: 'x' })).status, 404);
    assert.equal((await call(rival, 'POST', '/seller/become', { display_name: 'Rival', country: 'FR' })).status, 201);
  });
});

describe('listings', () => {
  it('a seller lists a card; anyone reads it with its verification code; non-sellers and unknown cards are refused', async () => {
    assert.equal((await call(null, 'POST', '/seller/listings', listingBody(cards[0]!, 10))).status, 401);
    assert.equal((await call(buyer, 'POST', '/seller/listings', listingBody(cards[0]!, 10))).status, 403);
    assert.equal((await call(seller, 'POST', '/seller/listings', listingBody(999999, 10))).status, 404);
    const invalid = await call(
      seller,
      'POST',
      '/seller/listings',
      listingBody(cards[0]!, 10, { condition: 'MINT', description: 'x'.repeat(2001) }),
    );
    assert.equal(invalid.status, 422);
    assert.deepEqual(invalid.body.detail.map((d) => d.loc.join('.')).sort(), ['body.condition', 'body.description']);
    const ungraded = await call(seller, 'POST', '/seller/listings', listingBody(cards[0]!, 10, { grading_company: 'PSA', grade: 9 }));
    assert.equal(ungraded.status, 422);
    const foreignImage = await call(
      seller,
      'POST',
      '/seller/listings',
      listingBody(cards[0]!, 10, { image_urls: ['https://elsewhere.example/a.jpg'] }),
    );
    assert.equal(foreignImage.status, 400);
    assert.match(foreignImage.body.detail, /upload/);

    const created = await call(
      seller,
      'POST',
      '/seller/listings',
      listingBody(cards[0]!, 12.5, { quantity: 2, accepts_offers: true, description: 'Near mint, sleeved' }),
    );
    assert.equal(created.status, 201);
    const l = created.body;
    assert.deepEqual(
      [
        l.card_id,
        l.price,
        l.currency,
        l.condition,
        l.quantity,
        l.accepts_offers,
        l.buy_now_enabled,
        l.status,
        l.renewal_count,
        l.seller_username,
      ],
      [cards[0], 12.5, 'EUR', 'NM', 2, true, true, 'active', 0, 'cardseller'],
    );
    assert.match(l.verification_code, /^[2-9A-HJ-NP-Z]{8}$/);
    const lifetimeDays = (Date.parse(l.expires_at) - Date.parse(l.created_at)) / 86_400_000;
    assert.ok(Math.abs(lifetimeDays - 60) < 0.01, `open for 60 days, got ${lifetimeDays}`);
    assert.equal('seller_id' in l, false);
    const read = await call(null, 'GET', `/api/listings/${l.id}`);
    assert.deepEqual(read.body, l);
    assert.equal((await call(null, 'GET', '/api/listings/999999')).status, 404);

    const verified = await call(null, 'GET', `/api/verify/${l.verification_code.toLowerCase()}`);
    assert.deepEqual(
      [verified.body.valid, verified.body.code, verified.body.card_name, verified.body.seller_username, verified.body.listing_url],
      [true, l.verification_code, 'market-test alpha', 'cardseller', `/api/listings/${l.id}`],
    );
    assert.deepEqual((await call(null, 'GET', '/api/verify/ABCD0O1I')).body, { valid: false, code: 'ABCD0O1I' });
    assert.deepEqual((await call(null, 'GET', '/api/verify/ZZZZZZZZ')).body, { valid: false, code: 'ZZZZZZZZ' });
  });

  it('browses open listings cheapest first with game, price and condition filters, limit and offset', async () => {
    for (const [card, price, condition] of [
      [cards[1]!, 3, 'LP'],
      [cards[1]!, 7, 'NM'],
      [cards[2]!, 25, 'MP'],
    ] as const)
      assert.equal((await call(rival, 'POST', '/seller/listings', listingBody(card, price, { condition }))).status, 201);
    const all = await call(null, 'GET', '/api/listings?tcg_slug=market-test&limit=200');
    assert.deepEqual(
      all.body.items.map((i: Json) => i.price),
      [3, 7, 12.5, 25],
    );
    assert.equal(all.body.total, 4);
    const filtered = await call(null, 'GET', '/api/listings?tcg_slug=market-test&min_price=5&max_price=20&condition=NM');
    assert.deepEqual(
      filtered.body.items.map((i: Json) => [i.price, i.condition]),
      [
        [7, 'NM'],
        [12.5, 'NM'],
      ],
    );
    const page = await call(null, 'GET', '/api/listings?tcg_slug=market-test&limit=2&offset=2');
    assert.deepEqual([page.body.items.map((i: Json) => i.price), page.body.total], [[12.5, 25], 4]);
    assert.deepEqual((await call(null, 'GET', '/api/listings?tcg_slug=no-such-game')).body, { items: [], total: 0 });
    // A blank or hexadecimal price is not the number the document asks for (it once read as 0 and 16).
    for (const bad of [
      'limit=201',
      'limit=0',
      'offset=-1',
      'condition=MINT',
      'min_price=abc',
      'min_price=',
      'max_price=%20',
      'min_price=0x10',
    ]) {
      const refused = await call(null, 'GET', `/api/listings?${bad}`);
      assert.equal(refused.status, 422, bad);
      assert.equal(refused.body.detail[0].loc[1], bad.split('=')[0], bad);
    }
    const exponents = await call(null, 'GET', '/api/listings?tcg_slug=market-test&min_price=5e0&max_price=.2e2');
    assert.deepEqual(exponents.body, (await call(null, 'GET', '/api/listings?tcg_slug=market-test&min_price=5&max_price=20')).body);
    assert.equal(exponents.body.total, 2);
    const sellers = await call(null, 'GET', '/api/market/active-sellers');
    assert.deepEqual(
      sellers.body.items.map((s: Json) => [s.username, s.active_listings]),
      [
        ['rivalseller', 3],
        ['cardseller', 1],
      ],
    );
  });

  it('only the owner changes or withdraws an active listing; a withdrawn one stays readable and leaves the market', async () => {
    const { body: l } = await call(seller, 'POST', '/seller/listings', listingBody(cards[2]!, 40));
    assert.equal((await call(rival, 'PATCH', `/seller/listings/${l.id}`, { price: 1 })).status, 403);
    assert.equal((await call(rival, 'DELETE', `/seller/listings/${l.id}`)).status, 403);
    assert.equal((await call(seller, 'PATCH', `/seller/listings/${l.id}`, {})).status, 422);
    assert.equal((await call(seller, 'PATCH', `/seller/listings/999999`, { price: 5 })).status, 404);
    assert.equal((await call(null, 'GET', `/api/listings/${l.id}`)).body.price, 40);
    const changed = await call(seller, 'PATCH', `/seller/listings/${l.id}`, {
      price: 35.5,
      buy_now_enabled: false,
      description: 'now with box',
    });
    assert.deepEqual([changed.body.price, changed.body.buy_now_enabled, changed.body.description], [35.5, false, 'now with box']);
    const withdrawn = await call(seller, 'DELETE', `/seller/listings/${l.id}`);
    assert.equal(withdrawn.body.status, 'withdrawn');
    assert.equal((await call(seller, 'DELETE', `/seller/listings/${l.id}`)).status, 409);
    assert.equal((await call(seller, 'PATCH', `/seller/listings/${l.id}`, { price: 30 })).status, 409);
    assert.equal((await call(seller, 'POST', `/api/listings/${l.id}/renew`)).status, 409);
    const browse = await call(null, 'GET', '/api/listings?tcg_slug=market-test&limit=200');
    assert.equal(
      browse.body.items.some((i: Json) => i.id === l.id),
      false,
    );
    assert.deepEqual((await call(null, 'GET', `/api/verify/${l.verification_code}`)).body, { valid: false, code: l.verification_code });
    const own = await call(seller, 'GET', '/seller/listings?status=withdrawn');
    assert.deepEqual(
      own.body.items.map((i: Json) => i.id),
      [l.id],
    );
  });

  it('renews by 30 days once within a minute, however many renewals arrive at once; an expired listing opens again', async () => {
    const { body: l } = await call(seller, 'POST', '/seller/listings', listingBody(cards[1]!, 9));
    assert.equal((await call(rival, 'POST', `/api/listings/${l.id}/renew`)).status, 403);
    const renewals = await Promise.all(Array.from({ length: 10 }, () => call(seller, 'POST', `/api/listings/${l.id}/renew`)));
    assert.deepEqual(new Set(renewals.map((r) => r.status)), new Set([200]));
    const expected = new Date(Date.parse(l.expires_at) + 30 * 86_400_000).toISOString();
    assert.deepEqual(new Set(renewals.map((r) => `${r.body.renewal_count} ${r.body.expires_at}`)), new Set([`1 ${expected}`]));

    // Past its expiry (and the minute since the last renewal): reads as expired, then a renewal
    // opens it for 30 days from now.
    await stack.stores.pg.pool.query(
      `UPDATE listings SET expires_at = now() - interval '1 day', renewed_at = now() - interval '2 minutes' WHERE id = $1`,
      [l.id],
    );
    assert.equal((await call(null, 'GET', `/api/listings/${l.id}`)).body.status, 'expired');
    assert.equal((await call(seller, 'PATCH', `/seller/listings/${l.id}`, { price: 8 })).status, 409);
    const before = Date.now();
    const reopened = await call(seller, 'POST', `/api/listings/${l.id}/renew`);
    assert.equal(reopened.body.renewal_count, 2);
    assert.ok(Math.abs(Date.parse(reopened.body.expires_at) - (before + 30 * 86_400_000)) < 60_000);
    assert.equal((await call(null, 'GET', `/api/listings/${l.id}`)).body.status, 'active');
  });

  it('previews the fees a seller pays from the one fee table', async () => {
    const plain = await call(null, 'GET', '/api/listings/fee-preview?price=100');
    assert.deepEqual(plain.body, {
      marketplace_rate: FEES.marketplaceRate,
      marketplace_amt: 5,
      image_protection_rate: 0,
      image_protection_amt: 0,
      total_amt: 5,
      seller_payout: 95,
    });
    const protectedPhotos = await call(null, 'GET', '/api/listings/fee-preview?price=19.99&image_protection=true');
    assert.deepEqual(protectedPhotos.body, {
      marketplace_rate: 0.05,
      marketplace_amt: 1,
      image_protection_rate: 0.01,
      image_protection_amt: 0.2,
      total_amt: 1.2,
      seller_payout: 18.79,
    });
    for (const bad of ['', 'price=0', 'price=-3', 'price=abc', 'price=10&image_protection=maybe'])
      assert.equal((await call(null, 'GET', `/api/listings/fee-preview?${bad}`)).status, 422, bad);
  });
});

describe('expiry', () => {
  it('the hourly expiry workflow expires due listings and e-mails a signed renewal link that works once', async () => {
    const { body: due } = await call(seller, 'POST', '/seller/listings', listingBody(cards[2]!, 14));
    const { body: fresh } = await call(seller, 'POST', '/seller/listings', listingBody(cards[2]!, 15));
    await stack.stores.pg.pool.query(`UPDATE listings SET expires_at = now() - interval '1 hour' WHERE id = $1`, [due.id]);
    const rig = await TemporalRig.start(stack);
    try {
      const result = await rig.client.workflow.execute('expireListings', {
        taskQueue: 'holo-ingest',
        workflowId: `expire-test-${Date.now()}`,
      });
      assert.equal((result as { expired: number }).expired, 1);
    } finally {
      await rig.close();
    }
    const stored = await stack.stores.pg.pool.query(`SELECT id, status FROM listings WHERE id = ANY($1) ORDER BY id`, [[due.id, fresh.id]]);
    assert.deepEqual(stored.rows, [
      { id: due.id, status: 'expired' },
      { id: fresh.id, status: 'active' },
    ]);
    const mail = await stack.stores.pg.pool.query(
      `SELECT to_address, subject, body_text AS body FROM email_outbox WHERE kind = 'listing_expired'`,
    );
    assert.equal(mail.rows.length, 1);
    assert.deepEqual(
      [mail.rows[0].to_address, mail.rows[0].subject],
      ['cardseller@example.com', 'Your listing of market-test gamma has expired'],
    );
    const link = /\/listing-renewal\/(\S+)/.exec(mail.rows[0].body)!;
    const token = link[1]!;

    const forged = token.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    assert.equal((await fetch(`${stack.url}/listing-renewal/${forged}`)).status, 404);
    const before = Date.now();
    const page = await fetch(`${stack.url}/listing-renewal/${token}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    assert.match(await page.text(), /Listing renewed[\s\S]*market-test gamma/);
    const renewed = (await call(null, 'GET', `/api/listings/${due.id}`)).body;
    assert.deepEqual([renewed.status, renewed.renewal_count], ['active', 1]);
    assert.ok(Math.abs(Date.parse(renewed.expires_at) - (before + 30 * 86_400_000)) < 60_000);
    assert.equal((await fetch(`${stack.url}/listing-renewal/${token}`)).status, 404, 'single use');
  });
});

describe('listing photos', () => {
  const upload = (account: KeyedAccount, file: Blob | null, name = 'card.jpg', field = 'file', fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append(field, file, name);
    else form.append('watermark', 'false');
    return fetch(`${stack.url}/api/upload/listing-image`, { method: 'POST', headers: account.headers, body: form });
  };

  it('keeps an uploaded photo upright, bounded and without metadata, and lets only its uploader list it', async () => {
    // A real scan from the shared data, as a phone would send it: JPEG with EXIF (GPS-like text).
    const scan = path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp');
    const jpeg = await sharp(fs.readFileSync(scan))
      .jpeg()
      .withExif({ IFD0: { Copyright: 'GPS 48.2082N 16.3738E' } })
      .toBuffer();
    assert.ok((await sharp(jpeg).metadata()).exif, 'the test photo carries EXIF');
    const res = await upload(seller, new Blob([jpeg], { type: 'image/jpeg' }));
    assert.equal(res.status, 201);
    const stored = (await res.json()) as { url: string; size: number };
    assert.match(stored.url, /^\/static\/images\/listings\/[0-9a-f]{64}\.webp$/);
    const served = await fetch(stack.url + stored.url);
    assert.equal(served.headers.get('content-type'), 'image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    assert.equal(bytes.length, stored.size);
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.exif, meta.icc, meta.xmp], ['webp', undefined, undefined, undefined]);
    assert.ok(meta.width! <= 1600 && meta.height! <= 1600);

    const listed = await call(seller, 'POST', '/seller/listings', listingBody(cards[0]!, 30, { image_urls: [stored.url] }));
    assert.equal(listed.status, 201);
    assert.deepEqual(listed.body.image_urls, [stored.url]);
    const borrowed = await call(rival, 'POST', '/seller/listings', listingBody(cards[0]!, 30, { image_urls: [stored.url] }));
    assert.equal(borrowed.status, 400);
    assert.match(borrowed.body.detail, /not a picture you uploaded/);
  });

  it('refuses what is not a picture by content, too large, missing, not multipart, or beside a field it does not name', async () => {
    const renamed = await upload(seller, new Blob([Buffer.from('%PDF-1.4 not a picture at all')], { type: 'image/jpeg' }), 'photo.jpg');
    assert.equal(renamed.status, 415);
    assert.match(((await renamed.json()) as { detail: string }).detail, /not a readable JPEG, PNG or WebP/);
    const huge = await upload(seller, new Blob([Buffer.alloc(9 * 1024 * 1024, 7)], { type: 'image/png' }), 'huge.png');
    assert.deepEqual([huge.status, ((await huge.json()) as { detail: string }).detail], [413, 'the file is larger than 8 MB']);
    const none = await upload(seller, null);
    assert.equal(none.status, 422);
    assert.deepEqual(((await none.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc, ['body', 'file']);
    const json = await call(seller, 'POST', '/api/upload/listing-image', { file: 'x' });
    assert.equal(json.status, 415);
    // The upload's fields are an allow-list (its schema says additionalProperties: false), as the
    // JSON bodies' are: a good picture beside a field the upload does not name is refused whole.
    const scan = fs.readFileSync(path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp'));
    const extra = await upload(seller, new Blob([scan], { type: 'image/webp' }), 'card.webp', 'file', { caption: 'mint' });
    assert.equal(extra.status, 422);
    assert.deepEqual(((await extra.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc, ['body', 'caption']);
    assert.equal((await fetch(`${stack.url}/static/images/listings/${'0'.repeat(64)}.webp`)).status, 404);
    const files = fs.readdirSync(path.join(stack.config.dataDir, 'images', 'listings'));
    assert.equal(files.length, 1, 'nothing refused was kept');
  });

  it('draws the verification band along the foot of a photo when asked, and nowhere else', async () => {
    const scan = fs.readFileSync(path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'pokemon-sv3pt5', 'sv3pt5-6.webp'));
    const send = async (fields: Record<string, string>) => {
      const res = await upload(seller, new Blob([scan], { type: 'image/webp' }), 'card.webp', 'file', fields);
      return { status: res.status, body: (await res.json()) as any };
    };
    const bad = await send({ watermark: 'yes' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'watermark']);
    const tiny = await upload(
      seller,
      new Blob([
        await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
          .png()
          .toBuffer(),
      ]),
      'dot.png',
      'file',
      { watermark: 'true' },
    );
    assert.equal(tiny.status, 422);
    assert.match(((await tiny.json()) as any).detail[0].msg, /at least 200 px/);
    const truncated = await upload(seller, new Blob([(await sharp(scan).jpeg().toBuffer()).subarray(0, 2000)]), 'cut.jpg');
    assert.equal(truncated.status, 415, 'a JPEG header over pixels that do not decode');
    const plain = await send({});
    const marked = await send({ watermark: 'true' });
    assert.equal(marked.status, 201);
    assert.notEqual(marked.body.url, plain.body.url);
    // Mean brightness of a strip: the band darkens the foot and leaves the rest of the photo alone.
    const strip = async (url: string, where: 'top' | 'foot') => {
      const bytes = Buffer.from(await (await fetch(stack.url + url)).arrayBuffer());
      const { width, height } = await sharp(bytes).metadata();
      const band = Math.round(width! / 40);
      const region = { left: 0, width: width!, height: band, top: where === 'top' ? 0 : height! - band };
      // stats() reads the whole input: the strip is cut out first.
      const { channels } = await sharp(await sharp(bytes).extract(region).png().toBuffer()).stats();
      return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
    };
    assert.ok(Math.abs((await strip(marked.body.url, 'top')) - (await strip(plain.body.url, 'top'))) < 2, 'the top is untouched');
    assert.ok((await strip(marked.body.url, 'foot')) < (await strip(plain.body.url, 'foot')) - 20, 'the foot carries the dark band');
  });
});

describe('stock import', () => {
  const fixture = (name: string) => fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', name));
  const send = (account: KeyedAccount, csv: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'stock.csv');
    return fetch(`${stack.url}/seller/stock/import`, { method: 'POST', headers: account.headers, body: form });
  };
  const imported = async () =>
    (
      await stack.stores.pg.pool.query(
        `SELECT card_id, price::float8 AS price, condition, quantity, description FROM listings WHERE seller_id = $1 AND stock_ref IS NOT NULL ORDER BY stock_ref`,
        [seller.user.id],
      )
    ).rows;

  it('imports a Cardmarket stock export as listings; a re-import sets, never doubles; a bad file lands nothing and names every bad line', async () => {
    await stack.stores.pg.pool.query(
      `INSERT INTO cross_refs (card_id, ref_key, ref_value) VALUES ($1, 'eu_marketplace_product_id', '900001'), ($2, 'eu_marketplace_product_id', '900002')`,
      [cards[0], cards[1]],
    );
    const bad = await send(seller, fixture('cardmarket-stock-bad.csv'));
    assert.equal(bad.status, 422);
    const issues = ((await bad.json()) as { detail: { loc: string[]; msg: string }[] }).detail;
    assert.deepEqual(
      issues.map((i) => [i.loc[2], i.msg]),
      [
        ['line 3', 'no catalogue card has Cardmarket product 777777'],
        ['line 4', 'Price "free" is not an amount in EUR'],
        ['line 5', 'Condition "MINT" is none of MT, NM, EX, GD, LP, PL, PO; Amount "0" is not a quantity of 1 to 10000'],
      ],
    );
    assert.deepEqual(await imported(), [], 'the good line of a bad file did not land');

    const first = await send(seller, fixture('cardmarket-stock.csv'));
    assert.equal(first.status, 201);
    assert.deepEqual(await first.json(), { ok: true, imported: 3, updated: 0 });
    const expected = [
      { card_id: cards[0], price: 2.5, condition: 'NM', quantity: 4, description: 'binder, no sleeves' },
      { card_id: cards[0], price: 1.8, condition: 'LP', quantity: 2, description: null },
      { card_id: cards[1], price: 12, condition: 'NM', quantity: 1, description: null },
    ];
    assert.deepEqual(await imported(), expected);
    const again = await send(seller, fixture('cardmarket-stock.csv'));
    assert.deepEqual(await again.json(), { ok: true, imported: 0, updated: 3 });
    assert.deepEqual(await imported(), expected, 'the same export twice: the same stock');
    assert.equal((await send(buyer, fixture('cardmarket-stock.csv'))).status, 403);
    const noHeader = await send(seller, Buffer.from('900001;2.50;NM;4\n'));
    assert.equal(noHeader.status, 422);
  });
});

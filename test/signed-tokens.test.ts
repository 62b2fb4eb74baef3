// Every token Holo signs goes through one module (sql/runtime/signedTokens.ts): for each purpose a
// token verifies; tampered claims, signatures and headers (alg none, another algorithm, an
// unknown key id) are refused; a token of one purpose is refused as any other; an expired one is
// told apart; after a key rotation the old key still verifies until its tokens expire while new
// tokens carry the new key id. Random mutations of valid tokens never verify and never throw.
// Then the same through HTTP: the tcg_session cookie, a download link and a scan claim, across a
// rotation and a restarted API instance.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { createTokens, PURPOSES, type Claims, type Purpose, type Tokens } from '../sql/runtime/signedTokens.js';
import {
  CURRENT_FILE,
  keyring,
  loadKeyring,
  MAX_TOKEN_SECONDS,
  PREVIOUS_FILE,
  RETIRED_SECONDS,
  rotateKeyring,
} from '../sql/runtime/signingKeys.js';
import { loadConfig } from '../schemas/config.js';
import { createLogger } from '../sql/runtime/log.js';
import { buildDeps, startServer, type RunningServer } from '../api/server.js';
import { accountWithKey } from './support/accounts.js';
import { call, callAs, register } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';

const SECRET = crypto.randomBytes(32).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
const partsOf = (token: string) => token.split('.') as [string, string, string];
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const SAMPLES: { [P in Purpose]: Claims<P> } = {
  session: { sid: crypto.randomUUID(), sub: '42' },
  renewal: { sub: '7', jti: crypto.randomBytes(16).toString('base64url') },
  download: { file: 'latest-prices.csv.gz' },
  'scan-claim': { sub: crypto.randomUUID() },
  csrf: { bind: crypto.randomBytes(32).toString('base64url') },
  device: { sub: '42' },
};

/**
 * The key a purpose signs with, derived here the way the module does: forgeries below are signed
 * with the right key on purpose, so that what refuses them is the rule under test (the algorithm,
 * the purpose claim, the key id, the expiry), not a wrong key.
 */
const purposeKey = (secret: string, purpose: Purpose) =>
  new Uint8Array(crypto.hkdfSync('sha256', secret, 'holo signed tokens', purpose, 32));

let tokens: Tokens;
let kid: string;
const valid = new Map<Purpose, string>();

before(async () => {
  tokens = await createTokens(keyring(SECRET));
  kid = tokens.currentKid;
  for (const purpose of PURPOSES) valid.set(purpose, await tokens.sign(purpose, SAMPLES[purpose], nowSeconds() + 3600));
});

describe('signed tokens, one per purpose', () => {
  it('verify, with their claims, expiry and key id', async () => {
    for (const purpose of PURPOSES) {
      const token = valid.get(purpose)!;
      const verified = await tokens.verify(purpose, token);
      assert.ok(verified.ok, purpose);
      assert.deepEqual({ ...verified.claims, exp: undefined }, { ...SAMPLES[purpose], exp: undefined }, purpose);
      assert.equal(verified.kid, kid);
      const [header, payload] = partsOf(token).map((p, i) => (i < 2 ? decode(p) : p)) as [Record<string, unknown>, Record<string, unknown>];
      assert.deepEqual(header, { alg: 'HS256', kid });
      assert.equal(payload.purpose, purpose);
      assert.equal(typeof payload.exp, 'number');
    }
  });

  it('refuse a changed payload, a changed signature and a changed header', async () => {
    for (const purpose of PURPOSES) {
      const [h, p, s] = partsOf(valid.get(purpose)!);
      const claims = decode(p);
      const refused = async (token: string, what: string) =>
        assert.deepEqual(await tokens.verify(purpose, token), { ok: false, reason: 'invalid' }, `${purpose}: ${what}`);
      await refused(`${h}.${b64json({ ...claims, exp: (claims.exp as number) + 86_400 })}.${s}`, 'a later exp');
      const other = Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, typeof v === 'string' && k !== 'purpose' ? `${v}x` : v]));
      await refused(`${h}.${b64json(other)}.${s}`, 'another claim value');
      await refused(`${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`, 'one signature character');
      // The lowest bit of the last character is one base64url decoders drop: the same bytes, another text.
      const lastFlipped = B64URL[B64URL.indexOf(s.at(-1)!) ^ 1]!;
      await refused(`${h}.${p}.${s.slice(0, -1)}${lastFlipped}`, 'the last signature character, only bits decoders drop');
      await refused(`${h}.${p}.${partsOf(valid.get(purpose === 'csrf' ? 'session' : 'csrf')!)[2]}`, "another token's signature");
      await refused(`${h}.${p}.`, 'no signature');
      await refused(`${b64json({ alg: 'HS256', kid, typ: 'JWT' })}.${p}.${s}`, 'a header with one more field');
    }
  });

  it('refuse alg none, any other algorithm, and an unknown or missing key id', async () => {
    for (const purpose of PURPOSES) {
      const [, p, s] = partsOf(valid.get(purpose)!);
      const refused = async (token: string, what: string) =>
        assert.deepEqual(await tokens.verify(purpose, token), { ok: false, reason: 'invalid' }, `${purpose}: ${what}`);
      await refused(`${b64json({ alg: 'none', kid })}.${p}.`, 'alg none, no signature');
      await refused(`${b64json({ alg: 'none', kid })}.${p}.${s}`, 'alg none, the signature kept');
      await refused(`${b64json({ alg: 'none' })}.${p}.`, 'alg none, no kid');
      for (const alg of ['HS384', 'HS512', 'RS256', 'ES256', 'EdDSA']) await refused(`${b64json({ alg, kid })}.${p}.${s}`, `${alg} header`);
      const body = { ...SAMPLES[purpose], purpose };
      const key = purposeKey(SECRET, purpose);
      const exp = nowSeconds() + 3600;
      await refused(
        await new SignJWT(body).setProtectedHeader({ alg: 'HS512', kid }).setExpirationTime(exp).sign(key),
        'HS512 with the right key',
      );
      await refused(await new SignJWT(body).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(key), 'no kid, the right key');
      await refused(
        await new SignJWT(body).setProtectedHeader({ alg: 'HS256', kid: 'AAAAAAAAAAAA' }).setExpirationTime(exp).sign(key),
        'an unknown kid, the right key',
      );
      await refused(`${b64json({ alg: 'HS256', kid: 'AAAAAAAAAAAA' })}.${p}.${s}`, 'an unknown kid');
      await refused(await new SignJWT(body).setProtectedHeader({ alg: 'HS256', kid }).sign(key), 'no exp');
      const foreign = await createTokens(keyring(crypto.randomBytes(32).toString('base64url')));
      await refused(await foreign.sign(purpose, SAMPLES[purpose], exp), 'signed by another keyring');
      // The control: the same construction with every rule kept verifies.
      const kept = await new SignJWT(body).setProtectedHeader({ alg: 'HS256', kid }).setExpirationTime(exp).sign(key);
      assert.equal((await tokens.verify(purpose, kept)).ok, true, `${purpose}: the control verifies`);
    }
  });

  it('refuse a token of one purpose as any other, even signed with that purpose’s key', async () => {
    for (const purpose of PURPOSES) {
      for (const other of PURPOSES.filter((o) => o !== purpose)) {
        assert.deepEqual(await tokens.verify(other, valid.get(purpose)!), { ok: false, reason: 'invalid' }, `${purpose} as ${other}`);
        // The other purpose's key over this purpose's claim: the purpose claim refuses it.
        const crossed = await new SignJWT({ ...SAMPLES[other], purpose })
          .setProtectedHeader({ alg: 'HS256', kid })
          .setExpirationTime(nowSeconds() + 3600)
          .sign(purposeKey(SECRET, other));
        assert.deepEqual(await tokens.verify(other, crossed), { ok: false, reason: 'invalid' }, `${other}'s key, purpose ${purpose}`);
        assert.deepEqual(await tokens.verify(purpose, crossed), { ok: false, reason: 'invalid' }, `${other}'s key as ${purpose}`);
      }
    }
  });

  it('tell an expired token apart, from the second its exp is reached', async () => {
    for (const purpose of PURPOSES) {
      const token = valid.get(purpose)!;
      const exp = decode(partsOf(token)[1]).exp as number;
      assert.equal((await tokens.verify(purpose, token, new Date(exp * 1000 - 1000))).ok, true, purpose);
      assert.deepEqual(await tokens.verify(purpose, token, new Date(exp * 1000)), { ok: false, reason: 'expired' }, purpose);
      // Only a token we signed can be "expired": a forged one past its time is just invalid.
      const [h, p] = partsOf(token);
      assert.deepEqual(await tokens.verify(purpose, `${h}.${p}.${'A'.repeat(43)}`, new Date(exp * 1000 + 1000)), {
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('are never signed for longer than a retired key verifies', async () => {
    await assert.rejects(tokens.sign('download', SAMPLES.download, nowSeconds() + MAX_TOKEN_SECONDS + 3600), RangeError);
    await assert.rejects(tokens.sign('download', SAMPLES.download, 1.5), RangeError);
  });
});

describe('key rotation', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-keys-'));
  });
  after(async () => fs.rm(dataDir, { recursive: true, force: true }));
  const sources = () => ({ dataDir, sessionSecret: undefined, sessionSecretPrevious: [] });

  it('keeps the previous key verifying until its tokens expire; new tokens carry the new kid', async () => {
    const before = await createTokens(await loadKeyring(sources()));
    const stat = await fs.stat(path.join(dataDir, CURRENT_FILE));
    assert.equal(stat.mode & 0o777, 0o600, 'the key file is readable by its owner only');
    const old = new Map<Purpose, string>();
    for (const purpose of PURPOSES) old.set(purpose, await before.sign(purpose, SAMPLES[purpose], nowSeconds() + MAX_TOKEN_SECONDS));

    const rotated = await rotateKeyring(dataDir);
    assert.equal(rotated.retiredKid, before.currentKid);
    const after = await createTokens(await loadKeyring(sources()));
    assert.equal(after.currentKid, rotated.currentKid);
    assert.notEqual(after.currentKid, before.currentKid);
    for (const purpose of PURPOSES) {
      const verified = await after.verify(purpose, old.get(purpose)!);
      assert.ok(verified.ok, `${purpose}: signed before the rotation, verified after`);
      assert.equal(verified.kid, before.currentKid);
      const fresh = await after.sign(purpose, SAMPLES[purpose], nowSeconds() + 60);
      assert.equal(decode(partsOf(fresh)[0]).kid, after.currentKid, `${purpose}: new tokens carry the new kid`);
      // A process still on the old keyring does not know the new key: hence the restart.
      assert.equal((await before.verify(purpose, fresh)).ok, false);
    }

    // A second rotation keeps both older keys.
    const second = await rotateKeyring(dataDir);
    const ring = await loadKeyring(sources());
    assert.deepEqual(
      [ring.current.kid, ring.previous.map((k) => k.kid)],
      [second.currentKid, [rotated.currentKid, before.currentKid]],
      'newest previous key first',
    );

    // When every token a retired key signed has expired, the key is no longer there: it verifies nothing.
    const later = new Date(Date.now() + RETIRED_SECONDS * 1000 + 60_000);
    const afterAll = await createTokens(await loadKeyring(sources(), later));
    assert.deepEqual(await afterAll.verify('session', old.get('session')!, later), { ok: false, reason: 'invalid' });
    const third = await rotateKeyring(dataDir, later);
    const kept = (await fs.readFile(path.join(dataDir, PREVIOUS_FILE), 'utf8')).trim().split('\n');
    assert.equal(kept.length, 1, 'the rotation drops retired keys past their time and keeps the one it retires');
    assert.equal(third.previous, 1);
  });

  it('takes previous keys from HOLO_SESSION_SECRET_PREVIOUS', async () => {
    const oldSecret = crypto.randomBytes(32).toString('base64url');
    const newSecret = crypto.randomBytes(32).toString('base64url');
    const config = loadConfig({
      HOLO_DATA_DIR: dataDir,
      HOLO_SESSION_SECRET: newSecret,
      HOLO_SESSION_SECRET_PREVIOUS: ` ${oldSecret} ,${crypto.randomBytes(32).toString('base64url')}`,
    });
    const old = await createTokens(keyring(oldSecret));
    const token = await old.sign('download', SAMPLES.download, nowSeconds() + 60);
    const current = await createTokens(await loadKeyring(config));
    assert.equal(current.currentKid, (await createTokens(keyring(newSecret))).currentKid);
    assert.equal((await current.verify('download', token)).ok, true);
    assert.throws(() => loadConfig({ HOLO_SESSION_SECRET_PREVIOUS: 'too short' }), /HOLO_SESSION_SECRET_PREVIOUS/);
  });
});

describe('random tampering (property)', () => {
  const ALPHABET = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %\u0000é€');
  type Mutation =
    | { kind: 'replace'; at: number; ch: string }
    | { kind: 'delete'; at: number; n: number }
    | { kind: 'insert'; at: number; text: string }
    | { kind: 'bitflip'; part: number; at: number; bit: number }
    | { kind: 'swap'; a: number; b: number }
    | { kind: 'truncate'; at: number }
    | { kind: 'last'; ch: string };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), ch: fc.constantFrom(...ALPHABET) }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }) }),
    fc.record({
      kind: fc.constant('bitflip' as const),
      part: fc.integer({ min: 0, max: 2 }),
      at: fc.nat(),
      bit: fc.integer({ min: 0, max: 7 }),
    }),
    fc.record({ kind: fc.constant('swap' as const), a: fc.integer({ min: 0, max: 2 }), b: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    // The last character carries bits base64url decoders drop: a spelling of its own.
    fc.record({ kind: fc.constant('last' as const), ch: fc.constantFrom(...ALPHABET) }),
  );
  const apply = (token: string, m: Mutation): string => {
    switch (m.kind) {
      case 'replace': {
        const at = m.at % token.length;
        return token.slice(0, at) + m.ch + token.slice(at + 1);
      }
      case 'delete': {
        const at = m.at % token.length;
        return token.slice(0, at) + token.slice(at + m.n);
      }
      case 'insert': {
        const at = m.at % (token.length + 1);
        return token.slice(0, at) + m.text + token.slice(at);
      }
      case 'bitflip': {
        // A bit of the decoded bytes, written back as canonical base64url: what a forger would do.
        const parts = token.split('.');
        const part = parts[m.part % parts.length]!;
        const bytes = Buffer.from(part, 'base64url');
        if (bytes.length === 0) return token;
        bytes[m.at % bytes.length]! ^= 1 << m.bit;
        parts[m.part % parts.length] = bytes.toString('base64url');
        return parts.join('.');
      }
      case 'swap': {
        const parts = token.split('.');
        if (m.a >= parts.length || m.b >= parts.length) return token;
        [parts[m.a], parts[m.b]] = [parts[m.b]!, parts[m.a]!];
        return parts.join('.');
      }
      case 'truncate':
        return token.slice(0, m.at % token.length);
      case 'last':
        return token.slice(0, -1) + m.ch;
    }
  };

  it('a mutated token never verifies, as any purpose, and verify never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PURPOSES), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (purpose, mutations) => {
        const original = valid.get(purpose)!;
        const mutated = mutations.reduce(apply, original);
        fc.pre(mutated !== original);
        for (const as of PURPOSES) {
          const verified = await tokens.verify(as, mutated); // a throw fails the property
          assert.equal(verified.ok, false, `${JSON.stringify(mutated)} verified as ${as}`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('any text, or three parts of anything, never verifies and never throws', async () => {
    const part = fc.oneof(
      fc.base64String(),
      fc.string({ unit: 'binary' }),
      fc.json().map((j) => Buffer.from(j).toString('base64url')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PURPOSES),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 3000 }),
          fc.tuple(part, part, part).map((p) => p.join('.')),
        ),
        async (purpose, text) => assert.equal((await tokens.verify(purpose, text)).ok, false),
      ),
      { numRuns: 1000 },
    );
  });
});

describe('through HTTP', () => {
  let stack: Stack;
  let restarted: RunningServer | null = null;
  before(async () => {
    stack = await startStack({ demo: 'none' });
  });
  after(async () => {
    await restarted?.close();
    await stack?.close();
  });
  const me = (server: { url: string }, cookie: string) => call(server, 'GET', '/auth/me', { cookie });
  const cookieToken = (cookie: string) => cookie.slice('tcg_session='.length);

  it('tcg_session is a 30-day HS256 JWT of purpose session, and only that verifies as a session', async () => {
    const res = await register(stack, 'tokenuser');
    assert.equal(res.status, 201);
    const cookie = res.cookie!;
    const [h, p, s] = partsOf(cookieToken(cookie));
    const header = decode(h);
    const claims = decode(p);
    assert.deepEqual(header, { alg: 'HS256', kid: stack.server.deps.tokens.currentKid });
    assert.equal(claims.purpose, 'session');
    assert.equal(claims.sub, String((await me(stack, cookie)).body.id));
    assert.ok(Math.abs((claims.exp as number) - (nowSeconds() + 30 * 86_400)) < 60, 'expires in 30 days');
    assert.equal((await me(stack, cookie)).status, 200);

    const tokens = stack.server.deps.tokens;
    const session = { sid: claims.sid as string, sub: claims.sub as string };
    const refused = async (token: string, what: string) => assert.equal((await me(stack, `tcg_session=${token}`)).status, 401, what);
    await refused(`${b64json({ alg: 'none', kid: header.kid })}.${p}.`, 'alg none');
    await refused(`${h}.${b64json({ ...claims, sub: String(Number(claims.sub) + 1) })}.${s}`, 'another user in the payload');
    await refused(`${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`, 'a changed signature');
    await refused(`${b64json({ alg: 'HS256', kid: 'AAAAAAAAAAAA' })}.${p}.${s}`, 'an unknown kid');
    await refused(await tokens.sign('download', { file: 'x.csv.gz' }, nowSeconds() + 60), 'a download token as the cookie');
    await refused(await tokens.sign('session', session, nowSeconds() - 1), 'the same session, expired');
    // The control: the same session with a future expiry, signed by the server's keys, is the user.
    assert.equal((await me(stack, `tcg_session=${await tokens.sign('session', session, nowSeconds() + 60)}`)).status, 200);
    // A cookie of the format before this module (HMAC of the raw secret, no kid) is no session any more.
    const secret = (await fs.readFile(path.join(stack.config.dataDir, CURRENT_FILE), 'utf8')).trim();
    const oldBody = `${b64json({ alg: 'HS256', typ: 'JWT' })}.${b64json({ sid: session.sid, sub: Number(session.sub), iat: nowSeconds(), exp: nowSeconds() + 60 })}`;
    await refused(`${oldBody}.${crypto.createHmac('sha256', secret).update(oldBody).digest('base64url')}`, 'the old format');
  });

  it('a download link opens its file only, until it expires', async () => {
    const tokens = stack.server.deps.tokens;
    const link = async (file: string, token: Promise<string> | string) => (await fetch(`${stack.url}/dl/${await token}/${file}`)).status;
    const file = 'nothing-here.parquet';
    // 404: the token was accepted and the file looked up (none was exported in this stack).
    assert.equal(await link(file, tokens.sign('download', { file }, nowSeconds() + 60)), 404);
    assert.equal(await link(file, tokens.sign('download', { file: 'other.parquet' }, nowSeconds() + 60)), 403, 'another file');
    const expired = await fetch(`${stack.url}/dl/${await tokens.sign('download', { file }, nowSeconds() - 1)}/${file}`);
    assert.deepEqual([expired.status, ((await expired.json()) as { detail: string }).detail], [403, expect403Expired]);
    const session = cookieToken(
      (await call(stack, 'POST', '/auth/login', { body: { username: 'tokenuser', password: 'correct horse battery' } })).cookie!,
    );
    assert.equal(await link(file, session), 403, 'a session token as a link');
    const [h, p, s] = partsOf(await tokens.sign('download', { file }, nowSeconds() + 60));
    assert.equal(await link(file, `${b64json({ alg: 'none', kid: tokens.currentKid })}.${p}.${s}`), 403, 'alg none');
    assert.equal(await link(file, `${h}.${b64json({ file, purpose: 'download', exp: nowSeconds() + 600 })}.${s}`), 403, 'a changed exp');
  });

  it('after a rotation and a restart, old cookies, links and claims still work and new ones carry the new kid', async () => {
    const oldTokens = stack.server.deps.tokens;
    const login = (server: { url: string }) =>
      call(server, 'POST', '/auth/login', { body: { username: 'tokenuser', password: 'correct horse battery' } });
    const oldCookie = (await login(stack)).cookie!;
    const file = 'nothing-here.parquet';
    const oldLink = await oldTokens.sign('download', { file }, nowSeconds() + 3600);
    const desktop = await accountWithKey(stack, 'tokendesktop', 'starter');
    const scan = await callAs(stack, desktop, 'POST', '/api/scan-sessions');
    assert.equal(scan.status, 201);

    const rotated = await rotateKeyring(stack.config.dataDir);
    assert.equal(rotated.retiredKid, oldTokens.currentKid);
    // The restarted instance: the same stores, the keyring read again at start.
    const deps = await buildDeps(
      stack.config,
      stack.stores,
      createLogger('error', {}, () => undefined),
    );
    restarted = await startServer(deps, 0, '127.0.0.1');
    assert.equal(deps.tokens.currentKid, rotated.currentKid);

    assert.equal((await me(restarted, oldCookie)).status, 200, 'a cookie signed with the previous key');
    assert.equal((await fetch(`${restarted.url}/dl/${oldLink}/${file}`)).status, 404, 'a link signed with the previous key is accepted');
    const claimed = await call(restarted, 'POST', `/api/scan-sessions/${scan.body.id}/claim`, {
      body: { claim_token: scan.body.claim_token },
    });
    assert.equal(claimed.status, 200, 'a claim token signed with the previous key');

    const newCookie = (await login(restarted)).cookie!;
    assert.equal(decode(partsOf(cookieToken(newCookie))[0]).kid, rotated.currentKid);
    assert.equal((await me(restarted, newCookie)).status, 200);
    // An instance not restarted yet does not know the new key (README: restart every instance, or
    // with keys in the environment, add the new key as a previous one first).
    assert.equal((await me(stack, newCookie)).status, 401);
  });
});

const expect403Expired = 'This download link has expired: list /api/v2/bulk again for a fresh one';

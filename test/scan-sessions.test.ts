// Cross-device scan sessions (issue 17 §4): a desktop creates a session and follows it over SSE
// on one API instance while the phone claims it and uploads photos through another; both share
// PostgreSQL and Redis (a separate Redis connection when a server runs, pass 2 of the suite).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from '../sql/runtime/paths.js';
import { openRedis } from '../sql/stores/redis.js';
import { createLogger } from '../sql/runtime/log.js';
import { cardsOfSetByNumber } from '../sql/recognition.js';
import { buildDeps, startServer, type RunningServer } from '../api/server.js';
import { accountWithKey, type KeyedAccount } from './support/accounts.js';
import { call, callAs } from './support/http.js';
import { readSse } from './support/sse.js';
import { startStack, type Stack } from './support/stack.js';
import { cardPhoto, randomDistortion, randomGenerator } from './support/cardPhotos.js';

let stack: Stack;
let phoneSide: RunningServer;
let closePhoneSide: () => Promise<void>;
let owner: KeyedAccount;
let cardId: number;
let uprightPhoto: Buffer;

async function upload(server: { url: string }, id: string, headers: Record<string, string>, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'photo.jpg');
  const res = await fetch(`${server.url}/api/scan-sessions/${id}/upload-photo`, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

before(async () => {
  stack = await startStack({ recognitionIndex: true });
  cardId = (await cardsOfSetByNumber(stack.stores.pg.pool, 'lorcanajson:2')).find((c) => c.collector_number === '77')!.id;
  const scan = path.resolve(repoRoot, '..', 'shared', 'data', 'images', 'lorcana-2', '2-77.webp');
  // Upright as the phone took it: the session turns it 90° clockwise, so the match needs −90.
  uprightPhoto = await cardPhoto(
    scan,
    randomDistortion(randomGenerator(2), {
      tilt: 3,
      quarterTurns: 0,
      jitter: 1,
      background: 'light',
      blur: 0,
      glare: 0,
      sleeve: false,
      jpegQuality: 85,
    }),
    1,
  );
  // The phone's API instance: its own Redis connection when a server runs (pass 2); the in-process
  // stand-in is per process, so pass 1 shares it.
  const log = createLogger('error', {}, () => undefined);
  const redis = stack.stores.redis.kind === 'external' ? await openRedis(stack.config, log) : stack.stores.redis;
  const deps = await buildDeps(stack.config, { ...stack.stores, redis }, log);
  phoneSide = await startServer(deps, 0, '127.0.0.1');
  closePhoneSide = async () => {
    await phoneSide.close();
    if (redis !== stack.stores.redis) await redis.close();
  };
  owner = await accountWithKey(stack, 'desktopowner', 'enterprise');
});
after(async () => {
  await closePhoneSide?.();
  await stack?.close();
});

describe('scan sessions', () => {
  it('links a phone by QR code and streams its uploads and results in order, resumable', async () => {
    const created = await callAs(stack, owner, 'POST', '/api/scan-sessions');
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { id, claim_token: claimToken, claim_url: claimUrl } = created.body;
    assert.equal(created.body.state, 'open');
    assert.ok(claimUrl!.endsWith(`/scan/${id}#claim=${claimToken}`), claimUrl!);

    const qr = await fetch(`${stack.url}/api/scan-sessions/${id}/qr.png`, { headers: owner.headers });
    assert.equal(qr.headers.get('content-type'), 'image/png');
    const meta = await sharp(Buffer.from(await qr.arrayBuffer())).metadata();
    assert.equal(meta.format, 'png');
    assert.ok(meta.width! >= 300);

    const other = await accountWithKey(stack, 'someoneelse', 'enterprise');
    assert.equal((await callAs(stack, other, 'GET', `/api/scan-sessions/${id}`)).status, 404, 'another user’s session is not found');
    assert.equal((await fetch(`${stack.url}/api/scan-sessions/${id}/sse`, { headers: other.headers })).status, 404);

    const desktop = await readSse(`${stack.url}/api/scan-sessions/${id}/sse`, owner.headers);
    assert.equal(desktop.res.headers.get('content-type'), 'text/event-stream; charset=utf-8');

    assert.equal((await call(phoneSide, 'POST', `/api/scan-sessions/${id}/claim`, { body: { claim_token: 'x'.repeat(32) } })).status, 403);
    const claimed = await call(phoneSide, 'POST', `/api/scan-sessions/${id}/claim`, { body: { claim_token: claimToken } });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    const again = await call(phoneSide, 'POST', `/api/scan-sessions/${id}/claim`, { body: { claim_token: claimToken } });
    assert.equal(again.status, 409, 'the claim token works once');
    const device = { 'X-Scan-Device-Token': claimed.body.device_token };

    assert.equal((await upload(phoneSide, id, {}, uprightPhoto)).status, 401, 'no device token, no login');
    assert.equal((await upload(phoneSide, id, { 'X-Scan-Device-Token': 'nope' }, uprightPhoto)).status, 403);
    const uploaded = await upload(phoneSide, id, device, uprightPhoto);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body.candidates[0].card_id, cardId);
    assert.equal(uploaded.body.candidates[0].rotation_used, -90, 'turned 90° clockwise on upload, so turned back to match');

    const sent = await call(phoneSide, 'POST', `/api/scan-sessions/${id}/results`, { body: { card_ids: [cardId] }, headers: device });
    assert.equal(sent.status, 200);
    await desktop.waitFor('four events on the desktop', (e) => e.length >= 4);
    assert.deepEqual(
      desktop.events.map((e) => [e.id, e.event]),
      [
        [1, 'claimed'],
        [2, 'photo_uploaded'],
        [3, 'recognized'],
        [4, 'result'],
      ],
    );
    assert.equal(desktop.events[2]!.data.candidates[0].card_id, cardId);
    assert.deepEqual(desktop.events[3]!.data.card_ids, [cardId]);
    await desktop.close();

    // Reconnecting after event 2: the rest, in order, then what comes next.
    const resumed = await readSse(`${stack.url}/api/scan-sessions/${id}/sse`, { ...owner.headers, 'Last-Event-ID': '2' });
    await resumed.waitFor('replay after 2', (e) => e.length >= 2);
    assert.equal((await call(phoneSide, 'POST', `/api/scan-sessions/${id}/complete`, { headers: device })).status, 200);
    await resumed.waitFor('completed', (e) => e.some((x) => x.event === 'completed'));
    assert.deepEqual(
      resumed.events.map((e) => e.id),
      [3, 4, 5],
    );
    await resumed.waitFor('the stream ends after completed', () => resumed.ended());
    assert.equal((await callAs(stack, owner, 'GET', `/api/scan-sessions/${id}`)).body.state, 'completed');
    assert.equal((await upload(phoneSide, id, device, uprightPhoto)).status, 409, 'a completed session takes no more photos');
  });

  it('expires: no claim, an expired event, and the state says so', async () => {
    const created = await callAs(stack, owner, 'POST', '/api/scan-sessions');
    const { id, claim_token: claimToken } = created.body;
    await stack.stores.pg.pool.query("UPDATE scan_sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    assert.equal((await call(stack, 'POST', `/api/scan-sessions/${id}/claim`, { body: { claim_token: claimToken } })).status, 409);
    const stream = await readSse(`${stack.url}/api/scan-sessions/${id}/sse`, owner.headers);
    await stream.waitFor('expired', (e) => e.some((x) => x.event === 'expired'));
    await stream.waitFor('ended', () => stream.ended());
    assert.equal((await callAs(stack, owner, 'GET', `/api/scan-sessions/${id}`)).body.state, 'expired');
    const events = await stack.stores.pg.pool.query(
      "SELECT count(*)::int AS n FROM scan_session_events WHERE session_id = $1 AND type = 'expired'",
      [id],
    );
    assert.equal(events.rows[0].n, 1, 'written once');
  });

  it('counts a key-opened session’s uploads against the owner’s tier as it is now', async () => {
    const starter = await accountWithKey(stack, 'downgradedowner', 'starter');
    const created = await callAs(stack, starter, 'POST', '/api/scan-sessions');
    assert.equal(created.status, 201);
    const claimed = await call(phoneSide, 'POST', `/api/scan-sessions/${created.body.id}/claim`, {
      body: { claim_token: created.body.claim_token },
    });
    const device = { 'X-Scan-Device-Token': claimed.body.device_token };
    assert.equal((await upload(phoneSide, created.body.id, device, uprightPhoto)).status, 200, 'Starter recognises');
    // The owner moves down to Free: recognition needs Starter, through a session as through the key.
    await stack.stores.pg.pool.query(`UPDATE users SET tier = 'free' WHERE id = $1`, [starter.user.id]);
    const refused = await upload(phoneSide, created.body.id, device, uprightPhoto);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.match(refused.body.detail, /quota of 0/);
  });

  it('refuses bad ids and bodies in the spec’s shape', async () => {
    assert.equal((await callAs(stack, owner, 'GET', '/api/scan-sessions/not-a-uuid')).status, 422);
    const created = await callAs(stack, owner, 'POST', '/api/scan-sessions');
    const bad = await call(stack, 'POST', `/api/scan-sessions/${created.body.id}/claim`, { body: { token: 'x' } });
    assert.equal(bad.status, 422);
    assert.ok(Array.isArray(bad.body.detail));
  });
});

// Images from our own origin: AVIF or WebP by Accept, generated once, placeholders where we hold
// no picture, and the real picture once the fetcher has stored the upstream original.
import { silentLogger } from '../sql/runtime/log.js';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { fetchImageOriginals } from '../ingest/images/fetchOriginals.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
let cardId: number;
before(async () => {
  stack = await startStack();
  cardId = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-2'`)).rows[0].id;
});
after(async () => {
  await stack?.close();
});

const silent = silentLogger();

async function image(p: string, accept: string) {
  const res = await stack.get(p, { Accept: accept });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes, meta: res.status === 200 ? await sharp(bytes).metadata() : null };
}

describe('GET /static/images/cards/{card_id}/{kind}', () => {
  it('serves AVIF to clients that accept it and WebP to the rest, varying on Accept', async () => {
    const avif = await image(`/static/images/cards/${cardId}/small`, 'image/avif,image/webp,*/*');
    assert.equal(avif.res.status, 200);
    assert.equal(avif.res.headers.get('content-type'), 'image/avif');
    assert.equal(avif.meta?.format, 'heif');
    assert.match(avif.res.headers.get('vary') ?? '', /Accept/);
    const webp = await image(`/static/images/cards/${cardId}/small`, 'image/webp,*/*');
    assert.equal(webp.res.headers.get('content-type'), 'image/webp');
    assert.equal(webp.meta?.format, 'webp');
  });

  it('renders a placeholder while the upstream picture is not stored, and says so', async () => {
    const { res } = await image(`/static/images/cards/${cardId}/large`, 'image/webp');
    assert.equal(res.headers.get('x-holo-placeholder'), 'true');
    const detail = (await stack.json(`/api/v2/cards/${cardId}`)).body;
    assert.ok(detail.images.length >= 1);
    assert.ok(
      detail.images.every((i: { is_placeholder: boolean; url: string }) => i.is_placeholder && i.url.startsWith('/static/images/')),
    );
  });

  it('serves the stored original, resized, once fetched, and flips is_placeholder', async () => {
    const other = (await stack.stores.pg.pool.query(`SELECT id FROM cards WHERE external_key = 'pokemontcg:base1-3'`)).rows[0].id as number;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-img-'));
    const file = path.join(dir, 'chansey.png');
    await sharp({ create: { width: 600, height: 838, channels: 3, background: { r: 20, g: 90, b: 200 } } })
      .png()
      .toFile(file);
    await stack.stores.pg.pool.query(`UPDATE images SET source_url = $2 WHERE card_id = $1 AND kind = 'small'`, [other, file]);
    await stack.stores.pg.pool.query(`UPDATE images SET source_url = $2 WHERE card_id = $1 AND kind = 'large'`, [
      other,
      path.join(dir, 'missing.png'),
    ]);
    const summary = await fetchImageOriginals(stack.stores.pg.pool, stack.server.deps.images, silent, {
      cardIds: [other],
      timeoutMs: 2000,
    });
    assert.deepEqual(summary, { attempted: 2, stored: 1, failed: 1 });
    const { res, meta } = await image(`/static/images/cards/${other}/small`, 'image/webp');
    assert.equal(res.headers.get('x-holo-placeholder'), 'false');
    assert.equal(meta?.width, 245);
    assert.equal(meta?.height, 342);
    const detail = (await stack.json(`/api/v2/cards/${other}`)).body as { images: { url: string; is_placeholder: boolean }[] };
    assert.equal(detail.images.find((i) => i.url.endsWith('/small'))?.is_placeholder, false);
    assert.equal(detail.images.find((i) => i.url.endsWith('/large'))?.is_placeholder, true);
  });

  it('renders the card-shaped placeholder for any card', async () => {
    const placeholder = await image(`/static/images/cards/${cardId}/placeholder`, 'image/avif');
    assert.equal(placeholder.res.status, 200);
    assert.equal(placeholder.meta?.width, 367);
  });

  it('404s unknown cards and 422s bad kinds or ids', async () => {
    assert.equal((await stack.get('/static/images/cards/987654321/small')).status, 404);
    const bad = await stack.get(`/static/images/cards/${cardId}/huge`);
    assert.equal(bad.status, 422);
    assert.deepEqual(((await bad.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['path', 'kind']);
    assert.equal((await stack.get('/static/images/cards/x/small')).status, 422);
  });
});

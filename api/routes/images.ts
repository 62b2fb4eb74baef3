// GET /static/images/cards/{card_id}/{kind}: AVIF when the client accepts it, WebP otherwise.
// The upstream picture when we hold it, else a rendered placeholder naming the card.
// GET /static/images/listings/{name}, /static/images/avatars/{name}: uploaded pictures (re-encoded).
import fs from 'node:fs';
import type Router from '@koa/router';
import { z } from '../../schemas/common.js';
import { intParam } from '../../schemas/common.js';
import { cardImageFile, type ImageFormat } from '../images/cardImages.js';
import type { AppDeps } from '../deps.js';
import { fromZod } from '../http/errors.js';
import { NotFound } from '../../schemas/errors.js';

const Params = z.object({ card_id: intParam({ min: 1, max: 2147483647 }), kind: z.enum(['small', 'large', 'placeholder']) });

// Plain Koa handlers, not defineRoute: each answer picks its own format from Accept (AVIF or WebP,
// Vary: Accept), its own Cache-Control (a day for the real picture, an hour for a placeholder) and
// header (X-Holo-Placeholder), and streams a file; a route declares one type and one maxAge, and
// answers JSON, SVG, PNG, CSV, events or a page. They read only their path (and Accept), no caller.
export function mountImageRoutes(router: Router, deps: AppDeps, images: AppDeps['images']): void {
  router.get('/static/images/cards/:card_id/:kind', async (ctx) => {
    const parsed = Params.safeParse(ctx.params);
    if (!parsed.success) throw fromZod('path', parsed.error, ctx.params);
    const { card_id: cardId, kind } = parsed.data;
    const format: ImageFormat = /image\/avif/.test(ctx.get('Accept')) ? 'avif' : 'webp';
    const { file, real } = await cardImageFile(deps.db, images, cardId, kind, format);
    ctx.vary('Accept');
    ctx.set('Cache-Control', real ? 'public, max-age=86400' : 'public, max-age=3600');
    ctx.set('X-Holo-Placeholder', real ? 'false' : 'true');
    ctx.type = `image/${format}`;
    ctx.body = fs.createReadStream(file);
  });
  // Uploaded pictures: named by their content's SHA-256, so a name never changes what it shows.
  // Plain Koa as above: a WebP file streamed as it is, immutable for a year.
  for (const kind of ['listings', 'avatars'] as const)
    router.get(`/static/images/${kind}/:name`, async (ctx) => {
      const name = String(ctx.params.name);
      if (!/^[0-9a-f]{64}\.webp$/.test(name) || !fs.existsSync(images.uploadedPath(kind, name))) throw new NotFound('image');
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.type = 'image/webp';
      ctx.body = fs.createReadStream(images.uploadedPath(kind, name));
    });
}

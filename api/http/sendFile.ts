// A file sent as it is on disk, by `send`: ranges (206; resume), conditional GET (304, 412), 416 and
// HEAD, answered by send itself. The route layer's: it writes to the Node response, bypassing Koa.
import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import send from 'send';
import { NotFound } from '../../schemas/errors.js';

/** Sends `file.path` under `file.root` with `file.headers` (the ETag among them: send's own is off). */
export async function sendFile(ctx: Context, file: { root: string; path: string; headers: Record<string, string> }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const stream = send(ctx.req, file.path, { root: file.root, etag: false, lastModified: true, cacheControl: false, dotfiles: 'deny' });
    stream.on('headers', (res: ServerResponse) => {
      for (const [name, value] of Object.entries(file.headers)) res.setHeader(name, value);
    });
    stream.on('error', (err: Error & { status?: number }) => {
      // The file was recorded but is gone (being replaced, or the volume is not shared).
      reject(err.status === 404 ? new NotFound('file') : err);
    });
    stream.on('end', () => resolve());
    stream.on('stream', () => {
      ctx.respond = false;
    });
    // 304, 412 and 416 are answered by send itself, without a body stream.
    ctx.res.once('finish', () => resolve());
    ctx.res.once('close', () => resolve());
    // Koa starts every response at 404; send sets only the other statuses (206, 304, 416).
    ctx.res.statusCode = 200;
    stream.pipe(ctx.res);
  });
  ctx.respond = false;
}

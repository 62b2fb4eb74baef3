// Request bodies the JSON parser leaves alone, read as streams with hard limits. One uploaded file
// from a multipart/form-data request (busboy): at most `maxBytes` in memory (refused with 413 as
// soon as it passes them), one file and the few small fields the upload names (1 KB each); anything
// but multipart is 415, no such file field 422, a part the upload does not name 422 (an allow-list,
// as the JSON bodies' strict objects). A raw body: its exact bytes, bounded.
import busboy from 'busboy';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { ValidationError } from './errors.js';
import { DomainError } from '../../schemas/errors.js';

export async function readUploadedFile(
  ctx: Context,
  opts: { field: string; maxBytes: number; fields?: readonly string[] },
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  const named = new Set(opts.fields ?? []);
  if (!ctx.is('multipart/form-data'))
    throw new DomainError('unsupported_media_type', `send multipart/form-data with the picture in the field "${opts.field}"`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: opts.maxBytes, fields: 10, fieldSize: 1024, parts: 12 } });
  } catch (err) {
    throw new DomainError('unsupported_media_type', `unreadable multipart body: ${(err as Error).message}`);
  }
  return new Promise((resolve, reject) => {
    let file: Buffer | null = null;
    let failure: Error | null = null;
    // No prototype: a field named __proto__ or constructor is just a field.
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    // busboy names a part sent with name="" undefined: no name to put in the loc.
    const extra = (name: string | undefined) =>
      new ValidationError([
        name
          ? { loc: ['body', name], msg: 'extra fields not permitted', type: 'value_error.extra' }
          : { loc: ['body'], msg: 'every part needs a name', type: 'value_error.missing' },
      ]);
    parser.on('field', (name, value) => {
      if (named.has(name)) fields[name] = value;
      else failure ??= extra(name);
    });
    // Parts past busboy's limits are dropped without a word: refuse the body instead.
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const)
      parser.on(limit, () => {
        failure ??= new ValidationError([{ loc: ['body'], msg: 'more parts than this upload has', type: 'value_error.extra' }]);
      });
    parser.on('file', (name, stream) => {
      // busboy also emits a cut-off body's error ("Unexpected end of form") on the part's own
      // stream: without a listener that is an uncaught error that ends the whole process.
      stream.on('error', (err: Error) => {
        failure ??= new DomainError('invalid', `unreadable multipart body: ${err.message}`);
      });
      if (name !== opts.field) {
        failure ??= extra(name);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = new DomainError('too_large', `the file is larger than ${opts.maxBytes / 1024 / 1024} MB`);
        stream.resume();
      });
      stream.on('end', () => {
        if (!failure) file = Buffer.concat(chunks);
      });
    });
    parser.on('error', (err: Error) => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(new DomainError('invalid', `unreadable multipart body: ${err.message}`));
    });
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!file || file.length === 0)
        reject(new ValidationError([{ loc: ['body', opts.field], msg: 'a non-empty file is required', type: 'value_error.missing' }]));
      else resolve({ file, fields });
    });
    // A client that goes away mid-upload: answer (to no one) instead of waiting forever.
    ctx.req.once('error', (err: Error) => reject(new DomainError('invalid', `unreadable multipart body: ${err.message}`)));
    ctx.req.pipe(parser);
  });
}

/** A request's body as the exact bytes sent (what a webhook signature covers), at most `maxBytes` (413 past them). */
export async function readRawBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: maxBytes, length: ctx.get('content-length') || undefined });
  } catch (err) {
    const e = err as { status?: number; type?: string };
    if (e.type === 'entity.too.large') throw new DomainError('too_large', `the body is larger than ${maxBytes} bytes`);
    throw new DomainError('invalid', `unreadable body: ${(err as Error).message}`);
  }
}

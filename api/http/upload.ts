// One uploaded file from a multipart/form-data request, read as a stream with hard limits (busboy):
// at most `maxBytes` in memory (the upload is refused with 413 as soon as it passes them), one
// file, a few small fields; anything but multipart is 415, no such field 422.
import busboy from 'busboy';
import type { Context } from 'koa';
import { HttpError, ValidationError } from './errors.js';

export async function readUploadedFile(ctx: Context, opts: { field: string; maxBytes: number }): Promise<Buffer> {
  if (!ctx.is('multipart/form-data')) throw new HttpError(415, `send multipart/form-data with the picture in the field "${opts.field}"`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: opts.maxBytes, fields: 10, fieldSize: 1024, parts: 12 } });
  } catch (err) {
    throw new HttpError(415, `unreadable multipart body: ${(err as Error).message}`);
  }
  return new Promise<Buffer>((resolve, reject) => {
    let file: Buffer | null = null;
    let failure: Error | null = null;
    parser.on('file', (name, stream) => {
      if (name !== opts.field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = new HttpError(413, `the file is larger than ${opts.maxBytes / 1024 / 1024} MB`);
        stream.resume();
      });
      stream.on('end', () => {
        if (!failure) file = Buffer.concat(chunks);
      });
    });
    parser.on('error', (err: Error) => reject(new HttpError(400, `unreadable multipart body: ${err.message}`)));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!file || file.length === 0)
        reject(new ValidationError([{ loc: ['body', opts.field], msg: 'a non-empty file is required', type: 'value_error.missing' }]));
      else resolve(file);
    });
    ctx.req.pipe(parser);
  });
}

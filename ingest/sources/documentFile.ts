// A document's bytes on this machine's disk for ClickHouse's input formats: with ClickHouse in this
// process (chDB), file() reads what a stream wrote, so a document is never held whole in memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

/** Writes `body` to a temporary file, hands its path to `use`, and removes the file whatever happens. */
export async function withDocumentFile<T>(body: AsyncIterable<Uint8Array | string>, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'holo-document-'));
  try {
    const file = path.join(dir, 'document.json');
    await pipeline(Readable.from(body), fs.createWriteStream(file));
    return await use(file);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

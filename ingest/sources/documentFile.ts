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

/** Documents, or bytes of them, that wait before their statement runs. */
const SPOOL_DOCUMENTS = 64;
const SPOOL_BYTES = 32 * 1024 * 1024;

/**
 * A feed's documents left on disk for one ClickHouse statement that stages several at once, over a
 * glob of their files: analysing stage_pokemontcg_pages.sql costs ~60 ms of CPU whatever it reads
 * (measured: 1 card 57 ms, 250 cards 65 ms, 1,000 cards 91 ms), more than the JavaScript parser
 * spent on a page. Each file is named by its document's seq base, which the statement reads from
 * `_file`. The pipeline flushes it before anything reads the stage and closes it at the end.
 */
export class DocumentSpool {
  #dir: string | null = null;
  #documents = 0;
  #bytes = 0;
  #stage: ((glob: string) => Promise<void>) | null = null;

  /** Writes a document as `<seqBase>.json` in the spool and returns its path. */
  async write(seqBase: number, body: AsyncIterable<Uint8Array | string>): Promise<string> {
    this.#dir ??= await fs.promises.mkdtemp(path.join(os.tmpdir(), 'holo-spool-'));
    const file = path.join(this.#dir, `${seqBase}.json`);
    await pipeline(Readable.from(body), fs.createWriteStream(file));
    this.#documents++;
    this.#bytes += (await fs.promises.stat(file)).size;
    return file;
  }

  /** `stage` stages every document written since the last flush (given their glob): at the flush, or now once enough wait. */
  async defer(stage: (glob: string) => Promise<void>): Promise<void> {
    this.#stage = stage;
    if (this.#documents >= SPOOL_DOCUMENTS || this.#bytes >= SPOOL_BYTES) await this.flush();
  }

  /** Runs the deferred statement over the documents written so far, then removes them. */
  async flush(): Promise<void> {
    const stage = this.#stage;
    const dir = this.#dir;
    this.#stage = null;
    this.#dir = null;
    this.#documents = 0;
    this.#bytes = 0;
    if (!dir) return;
    try {
      if (stage) await stage(path.join(dir, '*.json'));
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** Removes what was not flushed (a feed that failed). */
  async close(): Promise<void> {
    const dir = this.#dir;
    this.#dir = null;
    this.#stage = null;
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

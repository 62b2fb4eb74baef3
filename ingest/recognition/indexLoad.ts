// The recognition index in memory, loaded from PostgreSQL and reloaded when its version (entry
// count and newest computation) changes; the version is read at most once every RECHECK_MS.
import type { PgRunner } from '../../sql/typedQuery.js';
import { recognitionEntriesAfter, recognitionIndexVersion } from '../../sql/recognition.js';
import { deserialiseFeatures } from './features.js';
import { RecognitionIndex } from './matcher.js';

const RECHECK_MS = 30_000;
/** Index entries read from PostgreSQL at a time. */
const PAGE = 2_000;

export class LiveRecognitionIndex {
  #index: RecognitionIndex | null = null;
  #version = '';
  #checkedAt = 0;
  #loading: Promise<RecognitionIndex> | null = null;

  constructor(private readonly db: PgRunner) {}

  /** The current index; reloaded first when PostgreSQL holds a newer one. */
  async current(now = Date.now()): Promise<RecognitionIndex> {
    if (this.#index && now - this.#checkedAt < RECHECK_MS) return this.#index;
    this.#loading ??= this.#refresh(now).finally(() => (this.#loading = null));
    return this.#loading;
  }

  /** Forgets the version check's time, so the next call looks (after this process built the index). */
  invalidate(): void {
    this.#checkedAt = 0;
  }

  async #refresh(now: number): Promise<RecognitionIndex> {
    const [v] = await recognitionIndexVersion(this.db);
    const version = `${v!.entries}|${v!.latest}`;
    this.#checkedAt = now;
    if (this.#index && version === this.#version) return this.#index;
    // Page by page into the index's own arrays: only one page of rows is ever held besides them.
    const index = new RecognitionIndex(v!.entries);
    let after = { cardId: 0, cut: -1 };
    for (;;) {
      const rows = await recognitionEntriesAfter(this.db, after.cardId, after.cut, PAGE);
      for (const row of rows) {
        const features = deserialiseFeatures(row.features);
        if (features && index.size < index.capacity) index.add(row.card_id, features);
      }
      if (rows.length < PAGE) break;
      after = { cardId: rows.at(-1)!.card_id, cut: rows.at(-1)!.cut };
    }
    this.#index = index;
    this.#version = version;
    return this.#index;
  }
}

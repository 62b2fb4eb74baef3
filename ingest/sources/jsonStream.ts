// Reads a JSON document from a byte stream with @streamparser/json, handing over the values at the
// given paths as each completes ("$.data.*": every element of the top-level data array), so a
// 500 MB bulk file is never held whole, as one string or as one object graph.
import JSONParser from '@streamparser/json/jsonparser.js';
import { FeedFormatError } from './types.js';

export type JsonValue = { path: string; value: unknown };

/** "$.data.*" for an element of data, "$.totalCount" for a member: the path a value was found at. */
function pathOf(stack: { key: string | number | undefined }[], key: string | number | undefined): string {
  const parts = [...stack.slice(1).map((s) => s.key), key].map((k) => (typeof k === 'number' ? '*' : String(k)));
  return ['$', ...parts].join('.');
}

/**
 * Streams `bytes` through the parser; `onValue` sees each value at `paths` in document order. A
 * document that is not JSON, or ends before it is complete, is a FeedFormatError naming `what`.
 */
export async function readJsonStream(
  bytes: AsyncIterable<Uint8Array | string>,
  paths: string[],
  onValue: (v: JsonValue) => void,
  what: string,
): Promise<void> {
  const parser = new JSONParser({ paths, keepStack: false });
  let failure: Error | null = null;
  parser.onValue = ({ value, key, stack }) => {
    if (failure) return;
    try {
      onValue({ path: pathOf(stack as { key: string | number | undefined }[], key), value });
    } catch (err) {
      failure = err as Error;
    }
  };
  let seen = false;
  try {
    for await (const chunk of bytes) {
      if (chunk.length === 0) continue;
      seen = true;
      parser.write(chunk);
      if (failure) throw failure;
    }
    if (!seen) throw new FeedFormatError(`${what} is empty`);
    // A document cut off mid-way is refused here: the parser still waits for its end.
    if (!parser.isEnded) parser.end();
  } catch (err) {
    if (err instanceof FeedFormatError) throw err;
    throw new FeedFormatError(`${what} is not JSON (or is cut off): ${(err as Error).message}`);
  }
  if (failure) throw failure;
}

/** A string as a one-chunk stream, for the parsers' string entry points. */
export async function* oneChunk(text: string): AsyncIterable<string> {
  yield text;
}

import fs from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** Reads a delimited file with a header row into records keyed by the header's display names. */
export async function readDelimited(file: string, delimiter: string): Promise<Record<string, string>[]> {
  const text = await fs.readFile(file, 'utf8');
  return parse(text, { columns: true, delimiter, relax_column_count: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
}

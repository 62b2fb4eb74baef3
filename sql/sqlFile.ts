// SQL lives in sql/ as files; this reads one once and keeps it.
import fs from 'node:fs';
import path from 'node:path';
import { sqlDir } from './runtime/paths.js';

const cache = new Map<string, string>();

export function sqlFile(relative: string): string {
  let text = cache.get(relative);
  if (text === undefined) {
    text = fs.readFileSync(path.join(sqlDir, relative), 'utf8');
    cache.set(relative, text);
  }
  return text;
}

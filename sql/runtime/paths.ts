// Where the repository's non-code files live, wherever the compiled code runs from.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Compiled files live in dist/sql/runtime, sources in sql/runtime: walk up to the folder holding package.json.
export const repoRoot = here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '..', '..', '..') : path.resolve(here, '..', '..');
export const sqlDir = path.join(repoRoot, 'sql');

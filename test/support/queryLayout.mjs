// Query files are grouped by the typed module that runs them (README, Layout), checked by
// `npm run lint` (lint:queries): sql/<store>/queries/<module>/<name>.sql belongs to sql/<module>.ts,
// which names it '<module>/<name>'. A module names no other module's files (it calls that module's
// typed function instead), and every file is named by its module. Plain JavaScript so lint runs it
// before any build. Prints each problem after its rule's name; exit status 1 when there is one.
// Usage: node test/support/queryLayout.mjs [repository root]
import fs from 'node:fs';
import path from 'node:path';

const STORES = ['postgres', 'clickhouse'];

/** The problems of the tree at `root`, each "rule: file: what". */
export function queryLayoutProblems(root) {
  const problems = [];
  const sqlDir = path.join(root, 'sql');
  const modules = new Map(
    fs
      .readdirSync(sqlDir)
      .filter((n) => n.endsWith('.ts'))
      .map((n) => [n.slice(0, -3), fs.readFileSync(path.join(sqlDir, n), 'utf8')]),
  );
  const files = new Set(); // '<module>/<name>' of every query file, over both stores
  for (const store of STORES) {
    const dir = path.join(sqlDir, store, 'queries');
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.sql')) continue;
      const parts = entry.split(path.sep);
      const where = `sql/${store}/queries/${parts.join('/')}`;
      if (parts.length !== 2 || !modules.has(parts[0])) {
        problems.push(`query-file-in-its-module-folder: ${where}: not in sql/${store}/queries/<module>/ of a module sql/<module>.ts`);
        continue;
      }
      files.add(`${parts[0]}/${parts[1].slice(0, -4)}`);
    }
  }
  const folders = new Set([...files].map((f) => f.split('/')[0]));
  for (const [module, text] of modules) {
    const named = new Set();
    // '<module>/<name>' (a helper call) or '<store>/queries/<module>/<name>.sql' (sqlFile).
    for (const m of text.matchAll(/['"`](?:(?:postgres|clickhouse)\/queries\/)?(\w+)\/(\w+)(?:\.sql)?['"`]/g)) {
      if (!files.has(`${m[1]}/${m[2]}`)) continue;
      if (m[1] === module) named.add(`${m[1]}/${m[2]}`);
      else problems.push(`query-module-names-only-its-own-files: sql/${module}.ts: names ${m[1]}/${m[2]}, a file of sql/${m[1]}.ts`);
    }
    // A folder read by computed names (`clickhouse/queries/<module>/${name}.sql`): every file of it is named.
    for (const m of text.matchAll(/(?:postgres|clickhouse)\/queries\/(\w+)\/\$\{/g)) {
      if (!folders.has(m[1])) continue;
      if (m[1] === module) for (const f of files) if (f.startsWith(`${module}/`)) named.add(f);
      if (m[1] !== module) problems.push(`query-module-names-only-its-own-files: sql/${module}.ts: reads the folder of sql/${m[1]}.ts`);
    }
    for (const f of files) {
      if (f.startsWith(`${module}/`) && !named.has(f))
        problems.push(`query-file-named-by-its-module: ${f}.sql: sql/${module}.ts does not name it`);
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const problems = queryLayoutProblems(path.resolve(process.argv[2] ?? '.'));
  for (const p of problems) console.error(`  error ${p}`);
  if (problems.length) {
    console.error(`\nx ${problems.length} query layout problem(s)`);
    process.exit(1);
  }
}

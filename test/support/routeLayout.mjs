// Route files declare their cache, checked by `npm run lint` (lint:routes): a route keeps its
// answer by declaring `cache:` beside its maxAge (defineRoute, api/http/cachePolicy.ts), never by
// calling the cache itself with a key and a TTL of its own (issue 36: 58 such calls, each TTL
// repeated beside the route's maxAge). dependency-cruiser keeps route files from importing the
// cache module (api-routes-import-no-cache); this finds the calls, which need no import
// (deps.cache.json). Plain JavaScript so lint runs it before any build. Prints each problem after
// its rule's name; exit status 1 when there is one.
// Usage: node test/support/routeLayout.mjs [repository root]
import fs from 'node:fs';
import path from 'node:path';

/** The route files under `root`: api/routes/** and the portal's routes. */
function routeFiles(root) {
  const dir = path.join(root, 'api', 'routes');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join('api', 'routes', f))
    : [];
  const portal = path.join('api', 'portal', 'routes.ts');
  if (fs.existsSync(path.join(root, portal))) files.push(portal);
  return files;
}

/** The problems of the tree at `root`, each "rule: file:line: what". */
export function routeLayoutProblems(root) {
  const problems = [];
  for (const file of routeFiles(root)) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      // cache.json(…), deps.cache.json(…), cache?.json(…), and the method read off the cache.
      if (/\bcache\s*\??\.\s*json\b/.test(line))
        problems.push(
          `route-files-declare-their-cache: ${file.split(path.sep).join('/')}:${i + 1}: calls cache.json; declare cache: beside maxAge instead`,
        );
    });
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const problems = routeLayoutProblems(path.resolve(process.argv[2] ?? '.'));
  for (const p of problems) console.error(`  error ${p}`);
  if (problems.length) {
    console.error(`\nx ${problems.length} route layout problem(s)`);
    process.exit(1);
  }
}

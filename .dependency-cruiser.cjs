// The architecture, checked by `npm run lint`. Each top-level folder is one layer and imports only
// the layers below it: schemas < sql < ingest < workflows < api; test may import anything.
const layers = ['schemas', 'sql', 'ingest', 'workflows', 'api'];
const above = (layer) => layers.slice(layers.indexOf(layer) + 1);

module.exports = {
  forbidden: [
    ...layers.slice(0, -1).map((layer) => ({
      name: `${layer}-imports-only-below`,
      comment: `${layer}/ may import only ${layers.slice(0, layers.indexOf(layer)).join(', ') || 'no layer of ours'}`,
      severity: 'error',
      from: { path: `^${layer}/` },
      to: { path: `^(${above(layer).join('|')})/` },
    })),
    {
      name: 'no-app-imports-tests',
      severity: 'error',
      from: { path: `^(${layers.join('|')})/` },
      to: { path: '^test/' },
    },
    {
      name: 'no-cycles',
      comment: 'An import cycle is a design question: move what both sides need into a module of its own.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflow-sandbox',
      comment:
        "Workflow code runs in Temporal's deterministic sandbox: it imports @temporalio/workflow, workflows/shared and activities (types only: .oxlintrc.json checks that).",
      severity: 'error',
      from: { path: '^workflows/workflows\\.ts$' },
      to: {
        pathNot: ['^node_modules/@temporalio/(workflow|common)/', '^workflows/shared\\.ts$', '^workflows/activities\\.ts$'],
      },
    },
    {
      name: 'threads-without-chdb',
      comment:
        "A worker thread must not load chDB's native addon: when the thread exits, the addon tears the process's chDB connections down and the main thread's next query faults inside chDB (the mirror's thread reached it through sql/typedQuery.ts once).",
      severity: 'error',
      from: { path: '^ingest/(demoMarket/feedServerThread|recognition/passWorker)\\.ts$' },
      to: { path: '(^|/)node_modules/chdb/', reachable: true },
    },
    // Sub-layers: inside a layer, the folders keep the order their names promise (README, Layout).
    {
      name: 'sql-runtime-imports-only-runtime',
      comment:
        'sql/runtime/ (logging, ports, secrets, signed tokens, tool installs) runs before and under every store: it imports no store, service or query module.',
      severity: 'error',
      from: { path: '^sql/runtime/' },
      to: { path: '^sql/', pathNot: '^sql/runtime/' },
    },
    {
      name: 'sql-external-imports-only-runtime',
      comment:
        'sql/external/ (third-party services: Stripe) is a client of its service only: it imports sql/runtime/, no store or query module.',
      severity: 'error',
      from: { path: '^sql/external/' },
      to: { path: '^sql/', pathNot: '^sql/(runtime|external)/' },
    },
    {
      name: 'sql-stores-import-no-query-module',
      comment:
        'sql/stores/ opens and sets up the stores; what is said to them lives in the typed query modules sql/*.ts, which import the stores, never the reverse.',
      severity: 'error',
      from: { path: '^sql/stores/' },
      to: { path: '^sql/[^/]+\\.ts$' },
    },
    {
      name: 'ingest-engines-import-no-write-path',
      comment:
        'The engines in ingest/ that the API also runs on its request path (recognition/, events/, marketplace/, normalise/marketVerdict.ts) stay light: they import each other and sql/, never the loaders, sources, upstreams or importers.',
      severity: 'error',
      from: { path: '^ingest/(recognition/|events/|marketplace/|normalise/marketVerdict\\.ts$)' },
      to: { path: '^ingest/', pathNot: '^ingest/(recognition/|events/|marketplace/|normalise/marketVerdict\\.ts$)' },
    },
    {
      name: 'api-routes-imported-only-by-the-app',
      comment:
        'Route modules declare routes; only the app (api/*.ts) imports them, not a service and not another route module. What one needs from a route file belongs in a service (a route file used as a library was issue 36).',
      severity: 'error',
      from: { path: '^api/', pathNot: '^api/[^/]+\\.ts$' },
      to: { path: '^api/routes/' },
    },
    {
      name: 'api-routes-import-no-cache',
      comment:
        "A route declares its cache (defineRoute's `cache:` beside maxAge, api/http/cachePolicy.ts); it does not reach for the cache itself. lint:routes checks that no route file calls cache.json.",
      severity: 'error',
      from: { path: '^api/routes/' },
      to: { path: '^api/cache\\.ts$' },
    },
    {
      name: 'http-errors-only-at-the-edge',
      comment:
        "The HTTP error classes (api/http/errors.ts) are the edge's: the route layer (api/http/, api/routes/), the error middleware, the apps (api/*.ts) and the portal's app, routes and CSRF check. Services throw DomainError kinds (schemas/errors.ts; InvalidInput for a 422).",
      severity: 'error',
      from: { path: '^api/', pathNot: '^api/(http/|routes/|middleware/|[^/]+\\.ts$|portal/(app|routes|csrf)\\.ts$)' },
      to: { path: '^api/http/errors\\.ts$' },
    },
    {
      name: 'clickhouse-inserts-only-in-sql',
      comment:
        "Rows reach ClickHouse through the typed inserts of sql/ (chInsert, chInsertTabSeparated), never the raw insert of encoded bytes. Exceptions: the ingest benchmark's ceiling (a raw bulk insert by definition) and ingest/analytics/precompute.ts's hand-escaped TSV (issue 36, row 8: the precomputed analytics' own change, pending).",
      severity: 'error',
      from: { pathNot: ['^sql/', '^test/bench/ingest\\.ts$', '^ingest/analytics/precompute\\.ts$'] },
      to: { path: '^sql/stores/clickhouseInserts\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};

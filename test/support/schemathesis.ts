// Schemathesis, the OpenAPI fuzzer from PyPI, pinned and installed once into a virtual environment
// under the cache directory (like the Temporal CLI): the outside client our /openapi.json must
// satisfy. It runs as the separate program it is, with a configuration file this module writes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { toolCacheDir } from '../../sql/runtime/toolCache.js';

const run = promisify(execFile);
export const SCHEMATHESIS_VERSION = '4.32.5';

/** The schemathesis executable, installed into the cache on first use. */
export async function schemathesisBin(): Promise<string> {
  const venv = path.join(toolCacheDir(), `schemathesis-${SCHEMATHESIS_VERSION}`);
  const bin = path.join(venv, 'bin', 'schemathesis');
  if (fs.existsSync(bin)) return bin;
  await run('python3', ['-m', 'venv', venv]);
  await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return bin;
}

/** Credentials for one of the document's security schemes (apiKey-type: api_key; bearer: bearer). */
export type SchemeAuth = Record<string, { api_key: string } | { bearer: string }>;

/**
 * An operation whose success depends on state or relations the schema cannot state (a free
 * username, the caller's own name typed back), with the statuses that mean "valid but refused".
 */
export type Precondition = { operation: string; statuses: (number | string)[]; why: string };

export type FuzzRun = { code: number; output: string };

/** Generated cases per operation the caller is refused: each must still be a documented 401/403. */
const REFUSED_EXAMPLES = 2;

const toml = (value: string) => JSON.stringify(value);

/**
 * How long schemathesis reads an event stream, in seconds. A stream stays open while its subject
 * lives (a scan session for 30 minutes), so schemathesis reads each for its request timeout and
 * checks the events that arrived; its default of 10 s made one stream half of a caller's run. The
 * server writes what it holds at once, so a second reads the same events.
 */
const STREAM_READ_SECONDS = 1;

/** The document's operations ("METHOD /path") that answer with an event stream. */
async function eventStreamOperations(baseUrl: string): Promise<string[]> {
  type Operation = { responses?: Record<string, { content?: Record<string, unknown> }> };
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => Object.values(op.responses ?? {}).some((r) => r.content?.['text/event-stream'] !== undefined))
      .map(([method]) => `${method.toUpperCase()} ${route}`),
  );
}

/** One schemathesis run against a live server's /openapi.json, every check on, fixed seed. */
export async function fuzz(
  baseUrl: string,
  opts: {
    auth?: SchemeAuth;
    preconditions: Precondition[];
    maxExamples: number;
    seed: number;
    excludePaths: string[];
    /**
     * Operations ("METHOD /path") the caller may not use: fuzzed lightly, without the coverage phase
     * (their every answer is the refusal; what they do is fuzzed as the callers they admit).
     */
    refused?: string[];
    /** Operations fuzzed without the coverage phase (another run covers their boundary values). */
    withoutCoverage?: string[];
    /** Operations left out of this run. */
    skip?: string[];
    /** Only these operations (all when absent). */
    only?: string[];
    /** How long the run may take (15 minutes by default). */
    timeoutMs?: number;
  },
): Promise<FuzzRun> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'holo-fuzz-'));
  // Examples per operation in the file, not on the command line, so an operation's own setting
  // below can lower it (schemathesis ranks command-line options above the file's operations).
  const lines: string[] = [`generation.max-examples = ${opts.maxExamples}`];
  for (const [scheme, credential] of Object.entries(opts.auth ?? {})) {
    lines.push(`[auth.openapi.${scheme}]`);
    for (const [k, v] of Object.entries(credential)) lines.push(`${k} = ${toml(v)}`);
  }
  for (const p of opts.preconditions) {
    lines.push('[[operations]]', `include-name = ${toml(p.operation)}`);
    const statuses = ['2XX', 401, 403, 404, 409, 429, ...p.statuses].map((s) => (typeof s === 'number' ? String(s) : toml(s)));
    lines.push(`checks.positive_data_acceptance.expected-statuses = [${statuses.join(', ')}]`);
  }
  for (const operation of opts.refused ?? []) {
    lines.push('[[operations]]', `include-name = ${toml(operation)}`, `generation.max-examples = ${REFUSED_EXAMPLES}`);
    lines.push('phases.coverage.enabled = false', 'phases.stateful.enabled = false');
  }
  for (const operation of opts.withoutCoverage ?? [])
    lines.push('[[operations]]', `include-name = ${toml(operation)}`, 'phases.coverage.enabled = false');
  for (const operation of opts.skip ?? []) lines.push('[[operations]]', `include-name = ${toml(operation)}`, 'enabled = false');
  for (const operation of await eventStreamOperations(baseUrl))
    lines.push('[[operations]]', `include-name = ${toml(operation)}`, `request-timeout = ${STREAM_READ_SECONDS}`);
  const config = path.join(dir, 'schemathesis.toml');
  await fsp.writeFile(config, `${lines.join('\n')}\n`);
  const args = [
    '--config-file',
    config,
    'run',
    `${baseUrl}/openapi.json`,
    '--checks',
    'all',
    '--seed',
    String(opts.seed),
    // One worker: hypothesis' lambda introspection can fail inside CPython's ast module when two
    // threads describe strategies at once (seen here as "AST constructor recursion depth mismatch").
    '--workers',
    '1',
    '--no-color',
    ...opts.excludePaths.flatMap((p) => ['--exclude-path', p]),
    ...(opts.only ?? []).flatMap((name) => ['--include-name', name]),
  ];
  try {
    const { stdout, stderr } = await run(await schemathesisBin(), args, {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      timeout: opts.timeoutMs ?? 15 * 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

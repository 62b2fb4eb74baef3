// Schemathesis, the OpenAPI fuzzer from PyPI, pinned and installed once into a virtual environment
// under the cache directory (like the Temporal CLI): the outside client our /openapi.json must
// satisfy. Nothing of it is copied here; it is run as the separate program it is.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const SCHEMATHESIS_VERSION = '4.32.5';

/** The schemathesis executable, installed into the cache on first use. */
export async function schemathesisBin(): Promise<string> {
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const venv = path.join(cache, 'holo', `schemathesis-${SCHEMATHESIS_VERSION}`);
  const bin = path.join(venv, 'bin', 'schemathesis');
  if (fs.existsSync(bin)) return bin;
  await run('python3', ['-m', 'venv', venv]);
  await run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', `schemathesis==${SCHEMATHESIS_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return bin;
}

export type FuzzRun = { code: number; output: string };

/** One schemathesis run against a live server's /openapi.json, every check on, fixed seed. */
export async function fuzz(
  baseUrl: string,
  opts: { headers?: Record<string, string>; maxExamples: number; seed: number; excludePaths: string[] },
): Promise<FuzzRun> {
  const args = [
    'run',
    `${baseUrl}/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    String(opts.maxExamples),
    '--seed',
    String(opts.seed),
    '--workers',
    '2',
    '--no-color',
    ...opts.excludePaths.flatMap((p) => ['--exclude-path', p]),
    ...Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
  ];
  try {
    const { stdout, stderr } = await run(await schemathesisBin(), args, { maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

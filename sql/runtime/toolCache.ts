// Where tools Holo installs for itself on a machine live (the Temporal CLI, stripe-mock, the test
// suite's schemathesis): one per user, kept across data directories and clones.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from './log.js';

export const toolCacheDir = (): string => path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'holo');

const cacheBinDir = () => path.join(toolCacheDir(), 'bin');

/** A Go tool's binary in the cache, built once with `go install module@version` when missing. */
export async function goInstalled(module: string, binary: string, log: Logger): Promise<string> {
  const bin = path.join(cacheBinDir(), binary);
  if (fs.existsSync(bin)) return bin;
  log.info(`${binary}: installing with go install (once per machine)`, { module, target: bin });
  fs.mkdirSync(cacheBinDir(), { recursive: true });
  await promisify(execFile)('go', ['install', module], {
    env: { ...process.env, GOBIN: cacheBinDir() },
    maxBuffer: 64 * 1024 * 1024,
  });
  return bin;
}

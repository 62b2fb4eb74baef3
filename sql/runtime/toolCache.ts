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

/**
 * A Go tool's binary in the cache, built once with `go install module@version` when missing. It is
 * built into a folder of its own and moved into place, so a process that finds the binary finds it
 * whole, and two processes building at once both end with a working one.
 */
export async function goInstalled(module: string, binary: string, log: Logger): Promise<string> {
  const bin = path.join(cacheBinDir(), binary);
  if (fs.existsSync(bin)) return bin;
  log.info(`${binary}: installing with go install (once per machine; a few minutes)`, { module, target: bin });
  fs.mkdirSync(cacheBinDir(), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(cacheBinDir(), `.${binary}-`));
  try {
    await promisify(execFile)('go', ['install', module], {
      env: { ...process.env, GOBIN: scratch },
      maxBuffer: 64 * 1024 * 1024,
    });
    fs.renameSync(path.join(scratch, binary), bin);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return bin;
}

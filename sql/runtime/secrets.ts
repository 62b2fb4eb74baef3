// Secrets the service needs from its first start: from the environment when given, else
// generated once into the data directory (mode 0600) so restarts and several processes on the
// same directory agree. The value never reaches a log.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export async function loadOrCreateSecret(
  dataDir: string,
  fileName: string,
  fromEnv: string | undefined,
  prefix = '',
): Promise<{ value: string; file: string | null }> {
  if (fromEnv) return { value: fromEnv, file: null };
  const file = path.join(dataDir, fileName);
  await fs.mkdir(dataDir, { recursive: true });
  try {
    return { value: (await fs.readFile(file, 'utf8')).trim(), file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = `${prefix}${crypto.randomBytes(32).toString('base64url')}`;
  try {
    await fs.writeFile(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
    return { value, file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { value: (await fs.readFile(file, 'utf8')).trim(), file }; // another process wrote it first
  }
}

// The operator credential of the admin endpoints until accounts exist: a bearer token from
// HOLO_ADMIN_TOKEN, or one generated once into HOLO_DATA_DIR/admin-token (mode 0600). Only its
// SHA-256 digest stays in memory, and requests are compared digest to digest in constant time.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'koa';
import { HttpError } from './errors.js';

export type AdminGuard = { tokenFile: string | null; check(ctx: Context): void };

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

export async function adminGuard(config: { adminToken: string | undefined; dataDir: string }): Promise<AdminGuard> {
  let token = config.adminToken;
  let tokenFile: string | null = null;
  if (!token) {
    tokenFile = path.join(config.dataDir, 'admin-token');
    await fs.mkdir(config.dataDir, { recursive: true });
    try {
      token = (await fs.readFile(tokenFile, 'utf8')).trim();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      token = `holo_admin_${crypto.randomBytes(32).toString('base64url')}`;
      await fs.writeFile(tokenFile, `${token}\n`, { mode: 0o600, flag: 'wx' }).catch(async (e) => {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        token = (await fs.readFile(tokenFile!, 'utf8')).trim(); // another process wrote it first
      });
    }
  }
  const expected = digest(token!);
  return {
    tokenFile,
    check(ctx) {
      const header = ctx.get('authorization');
      const presented = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      if (!presented) {
        ctx.set('WWW-Authenticate', 'Bearer realm="holo-admin"');
        throw new HttpError(401, 'Not authenticated');
      }
      if (!crypto.timingSafeEqual(digest(presented), expected)) throw new HttpError(401, 'Invalid credentials');
    },
  };
}

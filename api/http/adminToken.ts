// The operator credential: a bearer token from HOLO_ADMIN_TOKEN, or one generated once into
// HOLO_DATA_DIR/admin-token (mode 0600), accepted wherever admin access is (beside admin
// accounts), for the CLI and automation. Only its SHA-256 digest stays in memory, and a presented
// token is compared digest to digest in constant time.
import crypto from 'node:crypto';
import { loadOrCreateSecret } from '../../sql/runtime/secrets.js';

export type AdminGuard = { tokenFile: string | null; isOperatorToken(value: string): boolean };

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

export async function adminGuard(config: { adminToken: string | undefined; dataDir: string }): Promise<AdminGuard> {
  const { value: token, file: tokenFile } = await loadOrCreateSecret(config.dataDir, 'admin-token', config.adminToken, 'holo_admin_');
  const expected = digest(token);
  return {
    tokenFile,
    isOperatorToken: (value) => crypto.timingSafeEqual(digest(value), expected),
  };
}

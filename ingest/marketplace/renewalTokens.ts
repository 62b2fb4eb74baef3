// Listing renewal tokens (spec: "GET /listing-renewal/{token}": signed, single-use, valid 7
// days). A token is `<listing id>.<expiry, unix seconds>.<random nonce>.<HMAC-SHA256 of the
// three>`, base64url where binary; the key is derived from the session secret every API instance
// and worker share. The signature proves we issued it; single use is the database's (only the
// nonce's digest is kept, see migration 023).
import crypto from 'node:crypto';

export const RENEWAL_TOKEN_DAYS = 7;

/** The token key: the shared secret, narrowed to this one use. */
export function renewalKey(sessionSecret: string): Buffer {
  return crypto.createHmac('sha256', sessionSecret).update('holo listing renewal token v1').digest();
}

const sign = (key: Buffer, payload: string) => crypto.createHmac('sha256', key).update(payload).digest('base64url');
const digest = (nonce: string) => crypto.createHash('sha256').update(nonce).digest();

export function issueRenewalToken(key: Buffer, listingId: number, now = new Date()) {
  const expiresAt = new Date(now.getTime() + RENEWAL_TOKEN_DAYS * 86_400_000);
  const nonce = crypto.randomBytes(16).toString('base64url');
  const payload = `${listingId}.${Math.floor(expiresAt.getTime() / 1000)}.${nonce}`;
  return { token: `${payload}.${sign(key, payload)}`, nonceSha256: digest(nonce), expiresAt };
}

/** The listing and nonce digest of a well-formed, correctly signed token still in time; null otherwise. */
export function readRenewalToken(key: Buffer, token: string, now = new Date()): { listingId: number; nonceSha256: Buffer } | null {
  const m = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, listing, expiry, nonce, signature] = m as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(key, `${listing}.${expiry}.${nonce}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (Number(expiry) * 1000 <= now.getTime()) return null;
  return { listingId: Number(listing), nonceSha256: digest(nonce) };
}

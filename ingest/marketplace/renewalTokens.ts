// Listing renewal tokens (spec: "GET /listing-renewal/{token}": signed, single-use, valid 7
// days). A token is a signed JWT (purpose "renewal", sql/runtime/signedTokens.ts) naming the
// listing (sub) and a random nonce (jti). The signature proves we issued it; single use is the
// database's (only the nonce's digest is kept, see migration 023).
import crypto from 'node:crypto';
import type { Tokens } from '../../sql/runtime/signedTokens.js';

export const RENEWAL_TOKEN_DAYS = 7;

const digest = (nonce: string) => crypto.createHash('sha256').update(nonce).digest();

export async function issueRenewalToken(tokens: Tokens, listingId: number, now = new Date()) {
  const expiresAt = new Date(now.getTime() + RENEWAL_TOKEN_DAYS * 86_400_000);
  const nonce = crypto.randomBytes(16).toString('base64url');
  const token = await tokens.sign('renewal', { sub: String(listingId), jti: nonce }, Math.floor(expiresAt.getTime() / 1000));
  return { token, nonceSha256: digest(nonce), expiresAt };
}

/** The listing and nonce digest of a correctly signed renewal token still in time; null otherwise. */
export async function readRenewalToken(
  tokens: Tokens,
  token: string,
  now = new Date(),
): Promise<{ listingId: number; nonceSha256: Buffer } | null> {
  const verified = await tokens.verify('renewal', token, now);
  return verified.ok ? { listingId: Number(verified.claims.sub), nonceSha256: digest(verified.claims.jti) } : null;
}

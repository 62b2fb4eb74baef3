// The session cookie tcg_session: an HS256-signed JWT (sql/runtime/signedTokens.ts, purpose
// "session") naming a server-side session (sid), so a logout or a password change revokes it at once.
import type { Tokens } from '../../sql/runtime/signedTokens.js';

export const SESSION_COOKIE = 'tcg_session';
export const SESSION_DAYS = 30;

export type SessionClaims = { sid: string; sub: number; exp: number };

export function signSession(tokens: Tokens, claims: SessionClaims): Promise<string> {
  return tokens.sign('session', { sid: claims.sid, sub: String(claims.sub) }, claims.exp);
}

/** The claims of a well-formed, correctly signed, unexpired session token; null otherwise. */
export async function verifySession(tokens: Tokens, token: string, now = new Date()): Promise<SessionClaims | null> {
  const verified = await tokens.verify('session', token, now);
  return verified.ok ? { sid: verified.claims.sid, sub: Number(verified.claims.sub), exp: verified.claims.exp } : null;
}

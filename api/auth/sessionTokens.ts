// The session cookie tcg_session: an HS256-signed JWT naming a server-side session (sid), so a
// logout or a password change revokes it at once. The signature is checked in constant time.
import crypto from 'node:crypto';

export const SESSION_COOKIE = 'tcg_session';
export const SESSION_DAYS = 30;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export type SessionClaims = { sid: string; sub: number; iat: number; exp: number };

export function signSession(secret: string, claims: SessionClaims): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${b64(crypto.createHmac('sha256', secret).update(body).digest())}`;
}

/** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
export function verifySession(secret: string, token: string, now = Date.now()): SessionClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return null;
  const expected = crypto.createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2]!, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as SessionClaims;
    if (typeof claims.sid !== 'string' || !Number.isInteger(claims.sub) || typeof claims.exp !== 'number') return null;
    return claims.exp * 1000 > now ? claims : null;
  } catch {
    return null;
  }
}

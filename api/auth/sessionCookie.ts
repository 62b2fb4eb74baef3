// Issuing and clearing the tcg_session cookie, for the site's /auth routes and the developer
// portal alike: a server-side session row, named by an HS256-signed token.
import type { Context } from 'koa';
import type { Db } from '../../sql/stores/db.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { createSession, revokeSession, sessionUser, type User } from './accounts.js';
import { SESSION_COOKIE, SESSION_DAYS, signSession, verifySession } from './sessionTokens.js';
import { DEVICE_SECONDS, signIn, type SignInDeps } from './signIn.js';
import { DomainError } from '../../schemas/errors.js';

/** A browser that has signed in to an account (signIn.ts): its sign-ins are not held by the name's ceiling. */
export const DEVICE_COOKIE = 'holo_device';

const ATTRIBUTES = 'Path=/; HttpOnly; Secure; SameSite=Lax';

export async function startSession(ctx: Context, db: Db, tokens: Tokens, user: User): Promise<string> {
  const session = await createSession(db, user.id);
  const token = await signSession(tokens, { sid: session.id, sub: user.id, exp: Math.floor(session.expiresAt.getTime() / 1000) });
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Max-Age=${SESSION_DAYS * 86_400}; ${ATTRIBUTES}`);
  return session.id;
}

/**
 * Signs in with the request's address and device cookie (the site's and the portal's forms alike);
 * 401 for a wrong name or password. The caller starts its session, then remembers the device.
 */
export async function requestSignIn(
  ctx: Context,
  deps: SignInDeps,
  login: string,
  password: string,
): Promise<{ user: User; device: string }> {
  const signedIn = await signIn(deps, { ip: ctx.ip }, { login, password, device: ctx.cookies.get(DEVICE_COOKIE) });
  if (!signedIn) throw new DomainError('unauthenticated', 'Invalid username or password');
  return signedIn;
}

/** The device token a sign-in gave, kept by the browser across sessions (a logout keeps it). */
export function rememberDevice(ctx: Context, token: string): void {
  ctx.append('Set-Cookie', `${DEVICE_COOKIE}=${token}; Max-Age=${DEVICE_SECONDS}; ${ATTRIBUTES}`);
}

export function clearSessionCookie(ctx: Context): void {
  ctx.append('Set-Cookie', `${SESSION_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`);
}

/** The live session the request's cookie names, if any (a bad or revoked cookie is no session). */
export async function cookieSession(ctx: Context, db: Db, tokens: Tokens): Promise<{ user: User; sessionId: string } | null> {
  if (!ctx.headers.cookie) return null;
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  const claims = cookie ? await verifySession(tokens, cookie) : null;
  const user = claims ? await sessionUser(db, claims.sid) : null;
  return claims && user && user.id === claims.sub ? { user, sessionId: claims.sid } : null;
}

export async function endSession(ctx: Context, db: Db, sessionId: string | null): Promise<void> {
  if (sessionId) await revokeSession(db, sessionId);
  clearSessionCookie(ctx);
}

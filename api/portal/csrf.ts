// CSRF protection for the portal's forms: a signed double-submit token bound to the session.
// Every visitor gets a random nonce in an HttpOnly cookie; a form's csrf_token is
// HMAC-SHA256(key, nonce | session id). A cross-site page can neither read the cookie nor compute
// the token, and a token stops working when the session it was issued for ends (sign-in, sign-out).
// Verification recomputes the token and compares in constant time.
import crypto from 'node:crypto';
import type { Context } from 'koa';
import { ValidationError } from '../http/errors.js';

export const CSRF_COOKIE = 'holo_csrf';

export type Csrf = {
  /** The token for forms on this response (sets the nonce cookie on a first visit). */
  token(ctx: Context, sessionId: string | null): string;
  /** 422 on csrf_token unless it is this visitor's token for this session. */
  verify(ctx: Context, sessionId: string | null, given: string): void;
};

export function createCsrf(sessionSecret: string): Csrf {
  // Its own key, derived from the session secret, so a CSRF token is never a valid signature elsewhere.
  const key = crypto.createHmac('sha256', sessionSecret).update('holo portal csrf v1').digest();
  const sign = (nonce: string, sessionId: string | null) =>
    crypto
      .createHmac('sha256', key)
      .update(`${nonce}|${sessionId ?? ''}`)
      .digest();
  const nonceOf = (ctx: Context): string | null => {
    const fromCookie = ctx.cookies.get(CSRF_COOKIE);
    return fromCookie && /^[A-Za-z0-9_-]{22}$/.test(fromCookie) ? fromCookie : ((ctx.state.csrfNonce as string | undefined) ?? null);
  };
  return {
    token(ctx, sessionId) {
      let nonce = nonceOf(ctx);
      if (!nonce) {
        nonce = crypto.randomBytes(16).toString('base64url');
        ctx.state.csrfNonce = nonce;
        ctx.append('Set-Cookie', `${CSRF_COOKIE}=${nonce}; Path=/; HttpOnly; Secure; SameSite=Strict`);
      }
      return sign(nonce, sessionId).toString('base64url');
    },
    verify(ctx, sessionId, given) {
      const nonce = ctx.cookies.get(CSRF_COOKIE);
      const presented = Buffer.from(given, 'base64url');
      // The length is no secret (always 32 bytes); the bytes are compared in constant time.
      if (!nonce || presented.length !== 32 || !crypto.timingSafeEqual(sign(nonce, sessionId), presented)) {
        throw new ValidationError([
          {
            loc: ['body', 'csrf_token'],
            msg: 'missing or invalid CSRF token: reload the page and submit the form again',
            type: 'value_error.csrf',
          },
        ]);
      }
    },
  };
}

// CSRF protection for the portal's forms: a signed double-submit token bound to the session.
// Every visitor gets a random nonce in an HttpOnly cookie; a form's csrf_token is a signed JWT
// (purpose "csrf", sql/runtime/signedTokens.ts) whose `bind` claim is a digest of that nonce and
// the session id. A cross-site page can neither read the cookie nor sign a token, and a token
// stops working when the session it was issued for ends (sign-in, sign-out) or after a day.
import crypto from 'node:crypto';
import type { Context } from 'koa';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { ValidationError } from '../http/errors.js';

export const CSRF_COOKIE = 'holo_csrf';
/** How long a form's token works: a page left open longer is reloaded before it posts. */
export const CSRF_SECONDS = 86_400;

export type Csrf = {
  /** The token for forms on this response (sets the nonce cookie on a first visit). */
  token(ctx: Context, sessionId: string | null): Promise<string>;
  /** 422 on csrf_token unless it is this visitor's token for this session. */
  verify(ctx: Context, sessionId: string | null, given: string): Promise<void>;
};

const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** What a token is bound to: this nonce and this session (none: signed out). */
const bindingOf = (nonce: string, sessionId: string | null) =>
  crypto
    .createHash('sha256')
    .update(`holo csrf\n${nonce}\n${sessionId ?? ''}`)
    .digest('base64url');

export function createCsrf(tokens: Tokens): Csrf {
  const nonceOf = (ctx: Context): string | null => {
    const fromCookie = ctx.cookies.get(CSRF_COOKIE);
    return fromCookie && NONCE.test(fromCookie) ? fromCookie : ((ctx.state.csrfNonce as string | undefined) ?? null);
  };
  return {
    token(ctx, sessionId) {
      let nonce = nonceOf(ctx);
      if (!nonce) {
        nonce = crypto.randomBytes(16).toString('base64url');
        ctx.state.csrfNonce = nonce;
        ctx.append('Set-Cookie', `${CSRF_COOKIE}=${nonce}; Path=/; HttpOnly; Secure; SameSite=Strict`);
      }
      return tokens.sign('csrf', { bind: bindingOf(nonce, sessionId) }, Math.floor(Date.now() / 1000) + CSRF_SECONDS);
    },
    async verify(ctx, sessionId, given) {
      const nonce = ctx.cookies.get(CSRF_COOKIE);
      const verified = await tokens.verify('csrf', given);
      // The signature was checked in constant time by jose; the binding is no secret to guess (the
      // request's own cookie and session give it), so a plain comparison is enough.
      if (!nonce || !NONCE.test(nonce) || !verified.ok || verified.claims.bind !== bindingOf(nonce, sessionId)) {
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

// Every token Holo signs, in one format: an HS256 JWT made and checked by `jose`, whose header
// names its key (`kid`, see signingKeys.ts) and whose claims always carry a `purpose` and an
// expiry (`exp`). The purposes, and what each token's claims hold, are listed here and nowhere
// else:
//   session     the tcg_session cookie: a server-side session (sid) of a user (sub); 30 days
//   renewal     a listing's renewal link: the listing (sub) and a single-use nonce (jti); 7 days
//   download    a bulk export link: the one file it opens (file); 6 hours
//   scan-claim  a scan session's QR code: the session (sub); until the session ends
//   csrf        a portal form: bound to the visitor's nonce cookie and session (bind); 1 day
//   device      the holo_device cookie: a browser that signed in to this account (sub); 30 days
// A token of one purpose never verifies as another: the claim is checked, and each purpose signs
// with its own key derived from the secret (HKDF), so even a check forgotten somewhere could not
// let one kind pass for another. Verification never throws: any failure is a refusal, and only
// a correctly signed token past its `exp` is told apart ("expired") so links can say so.
import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';
import { z } from 'zod';
import { MAX_TOKEN_SECONDS, type Keyring } from './signingKeys.js';

// `sub` is a string, as RFC 7519 has it: a row id is written in decimal.
const rowId = z.string().regex(/^[1-9]\d{0,9}$/);
const claims = {
  session: z.object({ sid: z.uuid(), sub: rowId }),
  renewal: z.object({ sub: rowId, jti: z.string().regex(/^[A-Za-z0-9_-]{22}$/) }),
  download: z.object({ file: z.string().min(1).max(255) }),
  'scan-claim': z.object({ sub: z.uuid() }),
  csrf: z.object({ bind: z.string().regex(/^[A-Za-z0-9_-]{43}$/) }),
  device: z.object({ sub: rowId }),
} as const;

export type Purpose = keyof typeof claims;
export const PURPOSES = Object.keys(claims) as Purpose[];
export type Claims<P extends Purpose> = z.output<(typeof claims)[P]>;

export type Verified<P extends Purpose> =
  { ok: true; claims: Claims<P> & { exp: number }; kid: string } | { ok: false; reason: 'expired' | 'invalid' };

export type Tokens = {
  /** The id of the key new tokens are signed with. */
  readonly currentKid: string;
  /** A token for `purpose` until `expiresAt` (unix seconds; at most MAX_TOKEN_SECONDS ahead). */
  sign<P extends Purpose>(purpose: P, body: Claims<P>, expiresAt: number): Promise<string>;
  /** The claims of a token of this purpose, signed by a key of the ring and not expired at `now`; never throws. */
  verify<P extends Purpose>(purpose: P, token: string, now?: Date): Promise<Verified<P>>;
};

/** Longer than any token we issue; a longer text is refused before it is parsed. */
const MAX_TOKEN_LENGTH = 2048;
/** An expiry a moment beyond the limit is the caller's clock, not a mistake (sessions take theirs from PostgreSQL). */
const SIGN_SLACK_SECONDS = 300;

/**
 * Whether each of the three parts is base64url as we write it. jose decodes leniently: the last
 * character of a part carries bits the decoder drops, so without this, one token would have
 * several spellings that verify (a "changed" link still working, a single-use nonce spelt twice).
 */
function canonical(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((p) => p.length > 0 && Buffer.from(p, 'base64url').toString('base64url') === p);
}

/** This key's own key for one purpose. */
function purposeKey(secret: string, purpose: Purpose): Promise<CryptoKey> {
  const bytes = Buffer.from(crypto.hkdfSync('sha256', secret, 'holo signed tokens', purpose, 32));
  return crypto.webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

export async function createTokens(ring: Keyring): Promise<Tokens> {
  const keys = new Map<string, Map<Purpose, CryptoKey>>();
  for (const { kid, secret } of [ring.current, ...ring.previous]) {
    const perPurpose = new Map<Purpose, CryptoKey>();
    for (const purpose of PURPOSES) perPurpose.set(purpose, await purposeKey(secret, purpose));
    keys.set(kid, perPurpose);
  }
  const currentKid = ring.current.kid;
  return {
    currentKid,
    async sign(purpose, body, expiresAt) {
      const now = Math.floor(Date.now() / 1000);
      // A retired key verifies for MAX_TOKEN_SECONDS after rotation: no token may outlive that.
      if (!Number.isInteger(expiresAt) || expiresAt > now + MAX_TOKEN_SECONDS + SIGN_SLACK_SECONDS)
        throw new RangeError(`a ${purpose} token expires within ${MAX_TOKEN_SECONDS} s from now (asked: ${expiresAt})`);
      const payload: JWTPayload = claims[purpose].parse(body);
      return new SignJWT({ ...payload, purpose })
        .setProtectedHeader({ alg: 'HS256', kid: currentKid })
        .setExpirationTime(expiresAt)
        .sign(keys.get(currentKid)!.get(purpose)!);
    },
    async verify(purpose, token, now = new Date()) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !canonical(token)) return { ok: false, reason: 'invalid' };
      let kid = '';
      try {
        const { payload } = await jwtVerify(
          token,
          (header: JWTHeaderParameters) => {
            const key = typeof header.kid === 'string' ? keys.get(header.kid)?.get(purpose) : undefined;
            if (!key) throw new errors.JWKSNoMatchingKey('unknown key id');
            kid = header.kid!;
            return key;
          },
          // Only HS256: `none`, and any other algorithm a header names, are refused before any key is used.
          { algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp', 'purpose'] },
        );
        if (payload.purpose !== purpose) return { ok: false, reason: 'invalid' };
        const parsed = claims[purpose].safeParse(payload);
        if (!parsed.success) return { ok: false, reason: 'invalid' };
        const verified = { ...(parsed.data as Claims<typeof purpose>), exp: payload.exp! };
        return { ok: true, claims: verified, kid };
      } catch (err) {
        // jose checks the signature before the claims: only an authentic token can be "expired".
        return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}

// Signing in with a name and a password, for the API's POST /auth/login and the portal's
// POST /login alike: the name is brought to its one spelling (canonicalLogin), which both keys the
// throttle's counts and is the text the account is looked up by, so two spellings can never be
// two counts of guesses at one account. A text that is no valid username or e-mail names no
// account: it is counted and answered like an unknown name.
//
// A browser that signs in gets a device token (the holo_device cookie, purpose `device`, naming
// the account; 30 days, renewed at every sign-in): presented with a name of that same account, the
// name's ceiling across addresses does not hold it (loginThrottle.ts), so guesses from elsewhere
// cannot lock the owner out of a browser they used before. The account is looked up before the
// limits are applied, for every attempt alike; the answer does not depend on it unless the
// caller holds a token of that very account, which only signing in to it gives.
import type { Db } from '../../sql/stores/db.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { MAX_TOKEN_SECONDS } from '../../sql/runtime/signingKeys.js';
import { canonicalLogin } from '../../schemas/auth.js';
import { accountForSignIn, checkPassword, type User } from './accounts.js';
import { loginSubject, throttledSignIn, type Client, type ThrottleDeps } from './loginThrottle.js';

export type SignInDeps = ThrottleDeps & { db: Db; tokens: Tokens };

/** A device token lives as long as the signing keys let any token live. */
export const DEVICE_SECONDS = MAX_TOKEN_SECONDS;

/**
 * The account and a new device token when the password is right, null when not;
 * RateLimited past a limit. `device` is the holo_device cookie, if the browser sent one.
 */
export async function signIn(
  deps: SignInDeps,
  client: Client,
  input: { login: string; password: string; device?: string },
): Promise<{ user: User; device: string } | null> {
  const name = canonicalLogin(input.login);
  const account = await accountForSignIn(deps.db, name);
  const known = input.device ? await deps.tokens.verify('device', input.device) : null;
  const knownDevice = Boolean(account && known?.ok && known.claims.sub === String(account.id));
  const subject = loginSubject(name ?? input.login.trim().toLowerCase());
  const user = await throttledSignIn(deps, client, { subject, knownDevice }, () => checkPassword(account, input.password));
  if (!user) return null;
  const device = await deps.tokens.sign('device', { sub: String(user.id) }, Math.floor(Date.now() / 1000) + DEVICE_SECONDS);
  return { user, device };
}

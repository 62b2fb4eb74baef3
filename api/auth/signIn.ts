// Signing in with a name and a password, for the API's POST /auth/login and the portal's
// POST /login alike: the name is brought to its one spelling (canonicalLogin), which both keys the
// throttle's count and is the text the account is looked up by, so two spellings can never be
// two counts of guesses at one account. A text that is no valid username or e-mail names no
// account: it is counted and answered like an unknown name.
import type { Db } from '../../sql/stores/db.js';
import { canonicalLogin } from '../../schemas/auth.js';
import { checkCredentials, type User } from './accounts.js';
import { loginSubject, throttledPasswordCheck, type Client, type ThrottleDeps } from './loginThrottle.js';

export type SignInDeps = ThrottleDeps & { db: Db };

/** The account when the password is right, null when not; TooManyRequestsError past a limit. */
export async function signIn(deps: SignInDeps, client: Client, input: { login: string; password: string }): Promise<User | null> {
  const name = canonicalLogin(input.login);
  const subject = loginSubject(name ?? input.login.trim().toLowerCase());
  return throttledPasswordCheck(deps, client, subject, () => checkCredentials(deps.db, name, input.password));
}

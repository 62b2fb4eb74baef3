// Who is calling, as a route's access tag resolved it: what defineRoute hands each handler, so a
// handler reads its caller from its input instead of from ctx.state.
import type { User } from './accounts.js';
import type { Access, Principal } from './principal.js';
import { DomainError } from '../../schemas/errors.js';

/** Routes open to all (free, signed) may be called anonymously: their caller's account may be null. */
type OpenAccess = 'free' | 'signed';

export type Caller<A extends Access = Access> = {
  /** The resolved credentials: always there once a tag other than free or signed let the call in. */
  principal: A extends OpenAccess ? Principal | undefined : Principal;
  /**
   * The calling account (a session's or a key's). On an open route, null for an anonymous caller
   * or the operator; on any other, the account, and reading it as the operator token is a 403.
   */
  readonly account: A extends OpenAccess ? User | null : User;
};

/** The account behind credentials (a session's or a key's); null for none or the operator token. */
export const userOf = (principal: Principal | undefined): User | null =>
  principal?.kind === 'session' || principal?.kind === 'key' ? principal.user : null;

/** The caller of a request whose access was checked (checkAccess set ctx.state.principal). */
export function callerOf<A extends Access>(principal: Principal | undefined, access: A): Caller<A> {
  const open = access === 'free' || access === 'signed';
  return {
    principal: principal as Caller<A>['principal'],
    // Read when the handler asks, so a handler that refuses for another reason first still does.
    get account() {
      const user = userOf(principal);
      if (user || open) return user as Caller<A>['account'];
      throw new DomainError('forbidden', 'This needs a user account (a session or an API key), not the operator token');
    },
  };
}

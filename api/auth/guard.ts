// A route's access tag, enforced: who is calling, may they, and within their limits.
import type { Context } from 'koa';
import { authorise, principalOf, type Access, type AuthDeps, type Principal } from './principal.js';
import { rateLimit } from './rateLimit.js';

/** Everything a route's access tag needs, in order: who, may they, and within their limits. */
export async function guard(ctx: Context, access: Access, deps: AuthDeps): Promise<Principal> {
  // Whoever sends it, only the signature the handler checks counts; the sender's retries are not throttled.
  if (access === 'signed') return { kind: 'anonymous' };
  const principal = await principalOf(ctx, deps);
  authorise(principal, access);
  await rateLimit(ctx, principal, deps);
  return principal;
}

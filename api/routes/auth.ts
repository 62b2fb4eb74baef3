// Accounts and the session cookie (spec: "Accounts and session", "Account deletion"). Paths the
// spec does not give: GET /auth/me, POST /auth/logout, POST /auth/change-password,
// POST /auth/register-seller, POST /auth/account/delete-cancel.
import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { cancelDeletion, changePassword, createUser, deleteAccount, publicUser, requestDeletion, type User } from '../auth/accounts.js';
import { accountSubject, countRegistration, throttledPasswordCheck, throttleWording } from '../auth/loginThrottle.js';
import { clearSessionCookie, endSession, rememberDevice, requestSignIn, startSession } from '../auth/sessionCookie.js';
import {
  ChangePasswordBody,
  ConfirmBody,
  DeletionRequested,
  LoginBody,
  Ok,
  Registered,
  RegisterBody,
  SellerRegisterBody,
  UserOut,
} from '../../schemas/auth.js';
import { DomainError } from '../../schemas/errors.js';

const tags = ['accounts'];

export const authRoutes = (deps: AppDeps) => {
  const { db } = deps;
  const limits = throttleWording(deps.config.loginThrottle);
  const setSessionCookie = (ctx: Context, user: User) => startSession(ctx, db, deps.tokens, user);
  // ctx: registering starts a session (its cookie) and is throttled by the client's address.
  const register =
    (isSeller: boolean) =>
    async ({
      body,
      ctx,
    }: {
      body: { username: string; email: string; password: string; display_name?: string; country?: string };
      ctx: Context;
    }) => {
      await countRegistration(deps, { ip: ctx.ip });
      const user = await createUser(db, { ...body, isSeller, displayName: body.display_name });
      await setSessionCookie(ctx, user);
      return { ok: true as const, user_id: user.id, username: user.username };
    };
  const confirmed = (user: User, confirm: string) => {
    if (confirm !== `DELETE ${user.username}`) throw new DomainError('invalid', `confirm must be exactly "DELETE ${user.username}"`);
  };
  return [
    defineRoute({
      method: 'post',
      path: '/auth/register',
      summary: 'Create an account and start a session',
      description: limits.registration,
      tags,
      body: RegisterBody,
      invalidBody: 400,
      response: Registered,
      status: 201,
      errors: [400, 429],
      handler: register(false),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/register-seller',
      summary: 'Create a seller account (the register-as-seller variant) and start a session',
      description: limits.registration,
      tags,
      body: SellerRegisterBody,
      invalidBody: 400,
      response: Registered,
      status: 201,
      errors: [400, 429],
      handler: register(true),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/login',
      summary: 'Start a session (username or e-mail); sets the tcg_session cookie',
      description: limits.login,
      tags,
      body: LoginBody,
      invalidBody: 400,
      response: Registered,
      errors: [400, 401, 429],
      // ctx: signing in sets the session and device cookies (and throttles by the client's address).
      // Not one call: the cookies are set from the sign-in's result, and only the edge sets cookies.
      handler: async ({ body, ctx }) => {
        const signedIn = await requestSignIn(ctx, deps, body.username, body.password);
        const { user } = signedIn;
        await setSessionCookie(ctx, user);
        // After the session's: clients that read the first Set-Cookie read the session.
        rememberDevice(ctx, signedIn.device);
        return { ok: true as const, user_id: user.id, username: user.username };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      summary: 'End the session (revoked server-side) and clear the cookie',
      tags,
      access: 'auth',
      response: Ok,
      // ctx: ending a session clears its cookie.
      handler: async ({ caller, ctx }) => {
        const principal = caller.principal;
        await endSession(ctx, db, principal.kind === 'session' ? principal.sessionId : null);
        return { ok: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      summary: 'Read own user',
      tags,
      access: 'auth',
      response: UserOut,
      handler: async ({ caller }) => publicUser(caller.account),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/change-password',
      summary: 'Change the password; every session is revoked and this one renewed',
      description: `A wrong current password is 400. ${limits.passwordChange}`,
      tags,
      access: 'auth',
      body: ChangePasswordBody,
      response: Ok,
      errors: [400, 429],
      // ctx: the session's cookie is renewed (and attempts throttled by the client's address).
      // Not one call: the renewed cookie depends on the check's result, and only the edge sets cookies.
      handler: async ({ body, caller, ctx }) => {
        const user = caller.account;
        const changed = await throttledPasswordCheck(deps, { ip: ctx.ip }, accountSubject(user.id), () =>
          changePassword(db, user, body.current_password, body.new_password),
        );
        if (!changed) throw new DomainError('invalid', 'Current password is wrong');
        if (caller.principal.kind === 'session') await setSessionCookie(ctx, user);
        return { ok: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/account/delete-request',
      summary: 'Flag the account for deletion; it can be cancelled for 24 hours, then deleted',
      tags,
      access: 'auth',
      body: ConfirmBody,
      response: DeletionRequested,
      errors: [400],
      handler: async ({ body, caller }) => {
        const user = caller.account;
        confirmed(user, body.confirm);
        return { ok: true as const, delete_after: await requestDeletion(db, user) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/account/delete-cancel',
      summary: 'Cancel a deletion request',
      tags,
      access: 'auth',
      response: Ok,
      errors: [400],
      handler: async ({ caller }) => {
        await cancelDeletion(db, caller.account);
        return { ok: true as const };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/auth/account',
      summary: 'Delete the account, at least 24 hours after the request (before: 400)',
      tags,
      access: 'auth',
      body: ConfirmBody,
      response: Ok,
      errors: [400],
      // ctx: a deleted account's session cookie is cleared.
      // Not one call: the cookie is cleared after the deletion, and only the edge clears cookies.
      handler: async ({ body, caller, ctx }) => {
        const user = caller.account;
        confirmed(user, body.confirm);
        await deleteAccount(db, user);
        await deps.keyCache.changed(`user:${user.id}`);
        clearSessionCookie(ctx);
        return { ok: true as const };
      },
    }),
  ];
};

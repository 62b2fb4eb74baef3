// The developer portal's routes (spec: "Developer portal"), declared like the API's: zod forms
// validate and document them. Pages adapt to the visitor (a signed-out visitor gets the sign-in
// forms); the form posts that change something need a session and a valid csrf_token.
// Beyond the spec's list: POST /login and POST /register (form sign-in and sign-up, 303 to the
// next step), /static/portal.css and /openapi.json.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { createUser, type User } from '../auth/accounts.js';
import { createPortalKey, enableApiAccess, revokeOwnKeyRecord } from '../auth/keys.js';
import { dashboardOf } from './dashboard.js';
import { countRegistration, throttleWording } from '../auth/loginThrottle.js';
import { isBusinessTier } from '../../schemas/tiers.js';
import { cookieSession, endSession, rememberDevice, requestSignIn, startSession } from '../auth/sessionCookie.js';
import { ValidationError } from '../http/errors.js';
import { createEndpoint, deleteEndpoint, webhookUrlProblem } from '../events/webhooks.js';
import { defineRoute, type AnyObject, type Method, type Route, type RouteSpec } from '../http/route.js';
import {
  CreateKeyForm,
  CreateWebhookForm,
  DeleteWebhookForm,
  WebhookIdPath,
  EnableForm,
  HtmlPage,
  LoginForm,
  PortalLogin,
  PortalLogout,
  RegisterForm,
  RevokeKeyForm,
  RevokeKeyParams,
} from '../../schemas/portal.js';
import { changelog } from './changelog.js';
import type { Csrf } from './csrf.js';
import { docsPage, type OpenApiDocument } from './docs.js';
import {
  changelogPage,
  continuePage,
  dashboardPage,
  enablePage,
  homePage,
  pricingPage,
  signInPage,
  type DashboardData,
  type View,
} from './pages.js';
import { DomainError } from '../../schemas/errors.js';

const tags = ['developer portal'];

export type PortalSession = { user: User; sessionId: string } | null;

/** The visitor's session, resolved once per request (API keys do not sign in to the portal). */
export async function portalSession(ctx: Context, deps: AppDeps): Promise<PortalSession> {
  if (ctx.state.portalSession === undefined) ctx.state.portalSession = await cookieSession(ctx, deps.db, deps.tokens);
  return ctx.state.portalSession as PortalSession;
}

/** The visitor of a portal request, as its cookies say: what the portal's handlers read instead of ctx. */
type Visitor = {
  readonly session: PortalSession;
  /** What every page shows: who is signed in (or `user`), the forms' csrf_token, where the page is. */
  view(user?: User | null): Promise<View>;
  /** The csrf_token of this visitor's forms. */
  csrfToken(): Promise<string>;
  /** The signed-in user of a form post whose csrf_token checks out; 401 / 422 otherwise. */
  signedIn(csrfToken: string): Promise<{ user: User; sessionId: string }>;
};

/** What a portal handler is given: its parsed input and its visitor. */
type PortalInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  visitor: Visitor;
};

export function portalRoutes(deps: AppDeps, portal: { apiUrl: string; apiDocument: OpenApiDocument; csrf: Csrf }): Route[] {
  const { db } = deps;
  const limits = throttleWording(deps.config.loginThrottle);
  // ctx, in this one place: the visitor is the request's cookies (the session's, and the CSRF nonce's,
  // which a first visit is given with the page's csrf_token).
  const visitorOf = async (ctx: Context): Promise<Visitor> => {
    const session = await portalSession(ctx, deps);
    const csrfToken = () => portal.csrf.token(ctx, session?.sessionId ?? null);
    return {
      session,
      csrfToken,
      view: async (user) => ({
        user: user === undefined ? (session?.user ?? null) : user,
        csrf: await csrfToken(),
        path: ctx.path,
        apiUrl: portal.apiUrl,
      }),
      signedIn: async (given) => {
        if (!session) throw new DomainError('unauthenticated', 'Sign in first: your session has ended or you are not signed in');
        await portal.csrf.verify(ctx, session.sessionId, given);
        return session;
      },
    };
  };
  /** A portal route: declared as the API's are, its handler given the visitor instead of ctx. */
  const portalRoute = <
    P extends AnyObject,
    Q extends AnyObject,
    R extends z.ZodType,
    B extends z.ZodType,
    const M extends Method,
    const Path extends string,
  >(
    spec: Omit<RouteSpec<P, Q, R, B>, 'handler' | 'access' | 'cache' | 'headers'> & {
      method: M;
      path: Path;
      handler: (input: PortalInput<P, Q, B>) => Promise<z.input<R> | string>;
    },
  ) =>
    defineRoute<P, Q, R, B, M, Path>({
      ...spec,
      handler: async ({ params, query, body, ctx }) => spec.handler({ params, query, body, visitor: await visitorOf(ctx) }),
    });
  const dashboard = async (visitor: Visitor, user: User, extra: Omit<DashboardData, 'keys' | 'deprecations' | 'webhooks'> = {}) => {
    const shown = await dashboardOf(deps, user);
    return dashboardPage({ ...(await visitor.view(user)), user }, { ...shown, ...extra });
  };
  const page = (path: string, summary: string, render: (visitor: Visitor) => Promise<string>) =>
    portalRoute({
      method: 'get',
      path,
      summary,
      tags,
      produces: 'html',
      response: HtmlPage,
      handler: async ({ visitor }) => render(visitor),
    });
  const changelogHtml = async (visitor: Visitor) => changelogPage(await visitor.view(), changelog());
  const docsHtml = async (visitor: Visitor) => docsPage(await visitor.view(), portal.apiDocument);
  const logout = (method: 'get' | 'post') =>
    defineRoute({
      method,
      path: '/logout',
      summary: 'Sign out: the session is revoked server-side and the cookie cleared',
      tags,
      response: PortalLogout,
      // ctx: signing out clears the session cookie.
      // Not one call: the session is read from and cleared in the cookies, which only the edge holds.
      handler: async ({ ctx }) => {
        const session = await portalSession(ctx, deps);
        await endSession(ctx, db, session?.sessionId ?? null);
        return { ok: true as const, signed_out: session !== null };
      },
    });
  const afterSignIn = (user: User) => (user.developer_enabled_at ? '/dashboard' : '/enable');
  const continueTo = async (ctx: Context, to: string) => {
    ctx.set('Location', to);
    return continuePage(await (await visitorOf(ctx)).view(), to);
  };

  return [
    page('/', 'Portal home: what the API offers, sign-in and sign-up', async (visitor) => homePage(await visitor.view())),
    portalRoute({
      method: 'get',
      path: '/login',
      summary: 'Who is signed in, and how to sign in (JSON)',
      tags,
      response: PortalLogin,
      description: 'A successful POST /login answers 303 to /dashboard (or /enable before API access is enabled).',
      handler: async ({ visitor }) => {
        const user = visitor.session?.user ?? null;
        return {
          authenticated: user !== null,
          user: user && { id: user.id, username: user.username, tier: user.tier, developer_enabled: user.developer_enabled_at !== null },
          csrf_token: await visitor.csrfToken(),
          login: { method: 'POST' as const, action: '/login', fields: ['username', 'password', 'csrf_token'] },
          register: { method: 'POST' as const, action: '/register', fields: ['username', 'email', 'password', 'csrf_token'] },
          after_login: user ? afterSignIn(user) : '/dashboard',
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/login',
      summary: 'Sign in with a form (username or e-mail); 303 to the dashboard',
      description: limits.login,
      tags,
      body: LoginForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      status: 303,
      errors: [401, 429],
      // ctx: signing in sets the session and device cookies (and throttles by the client's address); the 303 goes where Location says.
      // Not one call: CSRF, sign-in, the session and device cookies are the edge's; the page is the presenter.
      handler: async ({ body, ctx }) => {
        const current = await portalSession(ctx, deps);
        await portal.csrf.verify(ctx, current?.sessionId ?? null, body.csrf_token);
        const signedIn = await requestSignIn(ctx, deps, body.username, body.password);
        const { user } = signedIn;
        // A new session on every sign-in; one that was already open ends here.
        if (current) await endSession(ctx, db, current.sessionId);
        const sessionId = await startSession(ctx, db, deps.tokens, user);
        rememberDevice(ctx, signedIn.device);
        ctx.state.portalSession = { user, sessionId };
        return continueTo(ctx, afterSignIn(user));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/register',
      summary: 'Create an account with a form and sign in; 303 to /enable',
      description: limits.registration,
      tags,
      body: RegisterForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      status: 303,
      errors: [400, 429],
      // ctx: signing up sets the session cookie (and counts registrations by the client's address); the 303 goes where Location says.
      // Not one call: CSRF, the registration count by address and the session cookie are the edge's; the page is the presenter.
      handler: async ({ body, ctx }) => {
        const current = await portalSession(ctx, deps);
        await portal.csrf.verify(ctx, current?.sessionId ?? null, body.csrf_token);
        await countRegistration(deps, { ip: ctx.ip });
        const user = await createUser(db, body);
        if (current) await endSession(ctx, db, current.sessionId);
        const sessionId = await startSession(ctx, db, deps.tokens, user);
        ctx.state.portalSession = { user, sessionId };
        return continueTo(ctx, '/enable');
      },
    }),
    page('/enable', 'Enable API access (accept the API terms)', async (visitor) => {
      const { session } = visitor;
      if (!session) return signInPage(await visitor.view(), 'Enable API access', 'Sign in or create an account to enable API access.');
      return enablePage({ ...(await visitor.view()), user: session.user }, false);
    }),
    portalRoute({
      method: 'post',
      path: '/enable',
      summary: 'Enable API access for the signed-in account',
      tags,
      body: EnableForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      errors: [401],
      // Portal forms: visitor.signedIn (CSRF and session) parses, one service call, the page presents (it reads what it shows).
      handler: async ({ body, visitor }) => {
        const session = await visitor.signedIn(body.csrf_token);
        const user = await enableApiAccess(deps, session.user.id);
        return enablePage({ ...(await visitor.view(user)), user }, true);
      },
    }),
    page('/dashboard', 'Keys, usage and limits of the signed-in account', async (visitor) => {
      const { session } = visitor;
      if (!session) return signInPage(await visitor.view(), 'Dashboard', 'Sign in to see your keys and usage.');
      return dashboard(visitor, session.user);
    }),
    portalRoute({
      method: 'post',
      path: '/keys/create',
      summary: 'Create an API key; the page shows the full key this once',
      tags,
      body: CreateKeyForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      errors: [401, 403],
      // Portal forms: visitor.signedIn parses, one service call, dashboard() presents (it reads the keys it lists).
      handler: async ({ body, visitor }) => {
        const { user } = await visitor.signedIn(body.csrf_token);
        return dashboard(visitor, user, { created: await createPortalKey(deps, user, body.key_name) });
      },
    }),
    portalRoute({
      method: 'post',
      path: '/keys/{key_id}/revoke',
      summary: 'Revoke an own API key: it stops working at once',
      tags,
      params: RevokeKeyParams,
      body: RevokeKeyForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      errors: [401, 404],
      // Portal forms: visitor.signedIn parses, one service call, dashboard() presents (it reads the keys it lists).
      handler: async ({ params, body, visitor }) => {
        const { user } = await visitor.signedIn(body.csrf_token);
        return dashboard(visitor, user, { revoked: await revokeOwnKeyRecord(deps, user.id, params.key_id) });
      },
    }),
    portalRoute({
      method: 'post',
      path: '/webhooks/create',
      summary: 'Register a webhook endpoint (Business tiers); the page shows its signing secret once',
      tags,
      body: CreateWebhookForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      errors: [401, 403],
      // Portal forms: visitor.signedIn parses, the tier and URL are checked as the form's fields, one service call, dashboard() presents.
      handler: async ({ body, visitor }) => {
        const { user } = await visitor.signedIn(body.csrf_token);
        if (!isBusinessTier(user.tier)) throw new DomainError('forbidden', 'Webhooks need a Business tier (Shop Basic or higher)');
        const problem = webhookUrlProblem(body.url, deps.config.env);
        if (problem) throw new ValidationError([{ loc: ['body', 'url'], msg: problem, type: 'value_error.url' }]);
        const created = await createEndpoint(db, deps.webhookBox, user.id, {
          url: body.url,
          events: ['price.alert.triggered'],
          card_ids: [],
        });
        return dashboard(visitor, user, { createdWebhook: { url: created.url, secret: created.secret } });
      },
    }),
    portalRoute({
      method: 'post',
      path: '/webhooks/{webhook_id}/delete',
      summary: 'Delete an own webhook endpoint',
      tags,
      params: WebhookIdPath,
      body: DeleteWebhookForm,
      bodyType: 'form',
      produces: 'html',
      response: HtmlPage,
      errors: [401, 404],
      // Portal forms: visitor.signedIn parses, one service call, dashboard() presents (it reads the keys it lists).
      handler: async ({ params, body, visitor }) => {
        const { user } = await visitor.signedIn(body.csrf_token);
        await deleteEndpoint(db, user.id, params.webhook_id);
        return dashboard(visitor, user);
      },
    }),
    page('/pricing', 'The tiers and their limits', async (visitor) => pricingPage(await visitor.view())),
    page('/docs', 'API reference, rendered from the OpenAPI document', docsHtml),
    page('/changelog', 'API change log: dated, typed entries, newest first', changelogHtml),
    page('/dev/changelog', 'API change log (same as /changelog)', changelogHtml),
    logout('get'),
    logout('post'),
  ];
}

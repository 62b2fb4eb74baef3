// The developer portal's forms (application/x-www-form-urlencoded) and JSON answers (spec:
// "Developer portal"). Form fields arrive as strings; a repeated field is an error, not a list.
import { intParam, text, z } from './common.js';
import { LoginBody, RegisterBody } from './auth.js';

const csrf_token = z.string().max(600).default('').openapi({ description: "the form's CSRF token (from the page or GET /login)" });
// An empty field counts as left out: the browser sends key_name= when the box is cleared.
const emptyAsMissing = (v: unknown) => (v === '' ? undefined : v);

export const EnableForm = z.object({ csrf_token }).openapi('EnableForm');
export const CreateKeyForm = z
  .object({ key_name: z.preprocess(emptyAsMissing, text({ max: 100 }).default('My Key')), csrf_token })
  .openapi('CreateKeyForm');
export const RevokeKeyForm = z.object({ csrf_token }).openapi('RevokeKeyForm');
export const RevokeKeyParams = z.strictObject({ key_id: intParam({ min: 1, max: 2147483647 }) });
export const LoginForm = LoginBody.extend({ csrf_token }).openapi('PortalLoginForm');
export const RegisterForm = RegisterBody.extend({ csrf_token }).openapi('PortalRegisterForm');

export const HtmlPage = z.string().openapi({ description: 'a server-rendered HTML page' });

export const PortalLogin = z
  .object({
    authenticated: z.boolean(),
    user: z.object({ id: z.number().int(), username: z.string(), tier: z.string(), developer_enabled: z.boolean() }).nullable(),
    csrf_token: z.string().openapi({ description: 'for the forms below, with the holo_csrf cookie this response sets' }),
    login: z.object({ method: z.literal('POST'), action: z.string(), fields: z.array(z.string()) }),
    register: z.object({ method: z.literal('POST'), action: z.string(), fields: z.array(z.string()) }),
    after_login: z.string().openapi({ description: 'where a successful form sign-in redirects (303)' }),
  })
  .openapi('PortalLogin');
export const PortalLogout = z.object({ ok: z.literal(true), signed_out: z.boolean() }).openapi('PortalLogout');
export const CreateWebhookForm = z.object({ url: z.string().min(1).max(2048), csrf_token }).openapi('CreateWebhookForm');
export const DeleteWebhookForm = z.object({ csrf_token }).openapi('DeleteWebhookForm');
export const WebhookIdPath = z.strictObject({ webhook_id: intParam({ min: 1, max: 2147483647 }) });

// Accounts, sessions and API keys (spec: "Accounts and session", "API key record", "User").
import { Instant, intParam, text, z } from './common.js';
import { TIER_NAMES } from './tiers.js';
import { RecognitionQuota } from './recognition.js';

const username = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, 'username must be 3 to 30 characters')
  .max(30, 'username must be 3 to 30 characters')
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'username may use letters, digits, dot, dash and underscore, starting with a letter or digit');
// Trimmed, then checked: the published schema says e-mail so that clients generate real addresses.
const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email('invalid e-mail address'))
  .openapi({ type: 'string', format: 'email', maxLength: 254 });
const password = z.string().min(8, 'password must be at least 8 characters').max(1024);

export const RegisterBody = z.object({ username, email, password }).openapi('Register');
export const SellerRegisterBody = RegisterBody.extend({
  display_name: text({ max: 100 }).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country is an ISO 3166-1 alpha-2 code')
    .optional(),
}).openapi('RegisterSeller');
/**
 * The one spelling a sign-in name is counted and looked up by: trimmed and lowercased here, then
 * a username or an e-mail address as registration accepts them (both ASCII only), else null (it
 * names no account). The lookup compares this exact text, so no other code's idea of lowercase
 * matters: PostgreSQL's lower() under glibc or ICU locales turns U+0130 'İ' into 'i', JavaScript
 * into 'i' and a combining dot, and a name that lowercased two ways had two counts of guesses.
 */
export function canonicalLogin(typed: string): string | null {
  const lowered = typed.trim().toLowerCase();
  if (!/^[\x21-\x7e]+$/.test(lowered)) return null;
  return username.safeParse(lowered).success || email.safeParse(lowered).success ? lowered : null;
}

export const LoginBody = z
  .object({ username: text({ max: 254 }).openapi({ description: 'username or e-mail' }), password: z.string().min(1).max(1024) })
  .openapi('Login');
export const ChangePasswordBody = z
  .strictObject({ current_password: z.string().min(1).max(1024), new_password: password })
  .openapi('ChangePassword');
export const ConfirmBody = z
  .strictObject({ confirm: z.string().max(100).openapi({ description: 'exactly "DELETE <username>"' }) })
  .openapi('ConfirmDeletion');

export const UserOut = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    is_admin: z.boolean(),
    is_seller: z.boolean(),
    created_at: z.string(),
  })
  .openapi('User');
export const Registered = z.object({ ok: z.literal(true), user_id: z.number().int(), username: z.string() }).openapi('Registered');
export const Ok = z.object({ ok: z.literal(true) }).openapi('Ok');
export const DeletionRequested = z.object({ ok: z.literal(true), delete_after: z.string() }).openapi('DeletionRequested');

export const ApiKeyRecord = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string(),
    tier: z.string(),
    is_active: z.boolean(),
    daily_limit: z.number().int().nullable(),
    rate_limit_per_minute: z.number().int(),
    calls_today: z.number().int(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
  })
  .openapi('ApiKey');
export const ApiKeyList = z.object({ items: z.array(ApiKeyRecord) }).openapi('ApiKeyList');
export const ApiKeyCreated = ApiKeyRecord.extend({
  key: z.string().openapi({ description: 'the full key: shown this once, never again' }),
}).openapi('ApiKeyCreated');
export const CreateKeyBody = z
  .strictObject({
    name: text({ max: 100 }),
    tier: z
      .enum(TIER_NAMES as [string, ...string[]])
      .optional()
      .openapi({ description: 'defaults to the subscription tier; the subscription tier or a lower one' }),
    expires_at: Instant.optional().refine((v) => v === undefined || Date.parse(v) > Date.now(), 'expires_at must be in the future'),
  })
  .openapi('CreateApiKey');
export const KeyByNameQuery = z.strictObject({ name: text({ max: 100 }) });
/** A key's own limit: a positive count, or null to hand it back to the tier's. */
const keyLimitOverride = (per: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(2147483647)
    .nullable()
    .optional()
    .openapi({ description: `calls per ${per} for this key; null hands it back to the tier's limit` });
export const AdminKeyChange = z
  .strictObject({
    tier: z.enum(TIER_NAMES as [string, ...string[]]).optional(),
    daily_limit: keyLimitOverride('UTC day'),
    rate_limit_per_minute: keyLimitOverride('minute'),
    is_active: z.boolean().optional().openapi({ description: 'false suspends the key (refused with 401 until reactivated)' }),
  })
  .openapi('AdminKeyChange', { description: 'only the fields given change; an empty object changes nothing' });
export const KeyIdParams = z.strictObject({ key_id: intParam({ min: 1, max: 2147483647 }) });
export const DeveloperInfo = z
  .object({
    user: UserOut,
    tier: z.string(),
    limits: z.object({ requests_per_day: z.number().int().nullable(), requests_per_minute: z.number().int(), api_keys: z.number().int() }),
    keys: z.number().int(),
    recognition: RecognitionQuota.openapi({
      description: 'Card recognitions today against the tier’s daily quota (counted per account, reset at midnight UTC).',
    }),
  })
  .openapi('DeveloperInfo');

// API key management (spec: "API key record", the key rows of "Operations whose path is not
// given"): list, create (the full key once), by name, revoke; and the developer's own summary.
import { recognitionQuota } from '../recognition/quota.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { createKey, developerKey, listKeys, publicUser, revokeKey } from '../auth/accounts.js';
import { withLiveCalls } from '../auth/rateLimit.js';
import { TIERS, type Tier } from '../../schemas/tiers.js';
import {
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyRecord,
  CreateKeyBody,
  DeveloperInfo,
  KeyByNameQuery,
  KeyIdParams,
  Ok,
} from '../../schemas/auth.js';
import { NotFound } from '../../schemas/errors.js';

const tags = ['api keys'];

export const keyRoutes = (deps: AppDeps) => {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/keys/',
      summary: 'List own API keys (never the secret)',
      tags,
      access: 'auth',
      response: ApiKeyList,
      handler: async ({ caller }) => ({ items: await withLiveCalls(deps, await listKeys(db, caller.account.id)) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/keys/',
      summary: 'Create an API key; the full key is in this response only',
      tags,
      access: 'auth',
      body: CreateKeyBody,
      response: ApiKeyCreated,
      status: 201,
      errors: [403],
      handler: async ({ body, caller }) =>
        createKey(db, caller.account, { name: body.name, tier: body.tier as Tier | undefined, expires_at: body.expires_at }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/keys/by-name',
      summary: 'One own key by its name',
      tags,
      access: 'auth',
      query: KeyByNameQuery,
      response: ApiKeyRecord,
      errors: [404],
      handler: async ({ query, caller }) => {
        const key = (await listKeys(db, caller.account.id)).find((k) => k.name === query.name);
        if (!key) throw new NotFound('API key');
        return (await withLiveCalls(deps, [key]))[0]!;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/keys/{key_id}',
      summary: 'Revoke an own key: it stops working at once',
      tags,
      access: 'auth',
      params: KeyIdParams,
      response: Ok,
      errors: [404],
      handler: async ({ params, caller }) => {
        // Another user's key id is "not found": ownership is part of the lookup.
        if (!(await revokeKey(db, caller.account.id, params.key_id))) throw new NotFound('API key');
        await deps.keyCache.changed(`key:${params.key_id}`);
        return { ok: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/developer/key',
      summary: 'The caller’s own key: the one this call authenticated with, else (a session) the newest usable key',
      description: 'Never the secret, which only the creating response shows. 404 when a session’s account has no usable key.',
      tags,
      access: 'auth',
      response: ApiKeyRecord,
      errors: [404],
      handler: async ({ caller }) => {
        const principal = caller.principal;
        const key = await developerKey(db, caller.account.id, principal.kind === 'key' ? principal.keyId : null);
        if (!key) throw new NotFound('API key');
        return (await withLiveCalls(deps, [key]))[0]!;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/developer/info',
      summary: 'Own account, tier, limits and key count',
      tags,
      access: 'auth',
      response: DeveloperInfo,
      handler: async ({ caller }) => {
        const user = caller.account;
        const tier = TIERS[user.tier];
        return {
          user: publicUser(user),
          tier: user.tier,
          limits: { requests_per_day: tier.perDay, requests_per_minute: tier.perMinute, api_keys: tier.keys },
          keys: (await listKeys(db, user.id)).length,
          recognition: await recognitionQuota({ redis: deps.stores.redis, redisPrefix: deps.config.redisPrefix }, caller.principal, user),
        };
      },
    }),
  ];
};

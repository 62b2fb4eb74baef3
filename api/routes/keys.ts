// API key management (spec: "API key record", the key rows of "Operations whose path is not
// given"): list, create (the full key once), by name, revoke; and the developer's own summary.
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { createKey } from '../auth/accounts.js';
import { developerInfoOf, developerKeyOf, ownKeyByName, ownKeys, revokeOwnKey } from '../auth/keys.js';
import { presentDeveloperInfo } from '../auth/keysPresenter.js';
import type { Tier } from '../../schemas/tiers.js';
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
      handler: async ({ caller }) => ({ items: await ownKeys(deps, caller.account.id) }),
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
      handler: ({ query, caller }) => ownKeyByName(deps, caller.account.id, query.name),
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
        await revokeOwnKey(deps, caller.account.id, params.key_id);
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
      handler: ({ caller }) => developerKeyOf(deps, caller.account, caller.principal),
    }),
    defineRoute({
      method: 'get',
      path: '/api/developer/info',
      summary: 'Own account, tier, limits and key count',
      tags,
      access: 'auth',
      response: DeveloperInfo,
      handler: async ({ caller }) => presentDeveloperInfo(await developerInfoOf(deps, caller.account, caller.principal)),
    }),
  ];
};

// An operator's hold on any API key (spec: PATCH /admin/api-keys/{key_id}, admin only): its tier,
// its own limits or its active flag. Every API instance drops its cached copy of the key at once
// (the key cache's Redis announcement), so the next call anywhere meets the new terms.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { adminUpdateKey } from '../../auth/accounts.js';
import { withLiveCalls } from '../../auth/rateLimit.js';
import { AdminKeyChange, ApiKeyRecord, KeyIdParams } from '../../../schemas/auth.js';
import type { Tier } from '../../../schemas/tiers.js';
import { NotFound } from '../../../schemas/errors.js';

export const adminKeyRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'patch',
    path: '/admin/api-keys/{key_id}',
    summary: "Change any key's tier, limits or active flag; effective at once on every instance",
    description:
      "Tier: any, whatever the owner's subscription. Limits: an override of the tier's, null to hand back. is_active false suspends the key (calls answer 401) until set true again; a revoked key cannot be changed (404).",
    tags: ['admin'],
    access: 'admin',
    params: KeyIdParams,
    body: AdminKeyChange,
    response: ApiKeyRecord,
    errors: [404],
    handler: async ({ params, body }) => {
      const key = await adminUpdateKey(deps.db, params.key_id, { ...body, tier: body.tier as Tier | undefined });
      if (!key) throw new NotFound('API key');
      await deps.keyCache.changed(`key:${key.id}`);
      return (await withLiveCalls(deps, [key]))[0]!;
    },
  }),
];

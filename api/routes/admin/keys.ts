// An operator's hold on any API key (spec: PATCH /admin/api-keys/{key_id}, admin only): its tier,
// its own limits or its active flag. Every API instance drops its cached copy of the key at once
// (the key cache's Redis announcement), so the next call anywhere meets the new terms.
import type { AppDeps } from '../../deps.js';
import { defineRoute } from '../../http/route.js';
import { changeKey } from '../../auth/keys.js';
import { AdminKeyChange, ApiKeyRecord, KeyIdParams } from '../../../schemas/auth.js';
import type { Tier } from '../../../schemas/tiers.js';

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
    handler: ({ params, body }) => changeKey(deps, params.key_id, { ...body, tier: body.tier as Tier | undefined }),
  }),
];

// The mobile apps' version manifest (spec: GET /api/app/latest, public; POST
// /api/admin/app/version, admin). Answers may be cached a minute by clients and proxies.
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import type { Principal } from '../auth/principal.js';
import { latestManifest, publishVersion } from '../appVersions/manifest.js';
import { AppLatestQuery, AppManifest, PublishAppVersionBody } from '../../schemas/appVersions.js';

const publisherOf = (principal: Principal) =>
  principal.kind === 'session' || principal.kind === 'key' ? principal.user.username : 'operator';

export const appVersionRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'get',
    path: '/api/app/latest',
    summary: "The platform's latest app release; with current_version, whether to update",
    tags: ['app'],
    query: AppLatestQuery,
    response: AppManifest,
    maxAge: 60,
    errors: [404],
    handler: ({ query }) => latestManifest(deps.db, query.platform, query.current_version),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/app/version',
    summary: 'Publish an app release (above every earlier one of its platform)',
    tags: ['admin'],
    access: 'admin',
    body: PublishAppVersionBody,
    response: AppManifest,
    status: 201,
    errors: [409],
    handler: ({ body, caller }) => publishVersion(deps.db, body, publisherOf(caller.principal)),
  }),
];

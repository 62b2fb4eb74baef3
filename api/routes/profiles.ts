// Public profiles, privacy and avatars (spec: POST /me/privacy, /users/{username}; "Upload avatar"
// has no path in the spec: ours is POST /me/avatar).
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { readUploadedFile } from '../http/upload.js';
import { publicProfile, setPrivacy, uploadAvatar } from '../collection/profiles.js';
import { presentPublicProfile } from '../collection/profilesPresenter.js';
import { AVATAR_MAX_BYTES, AvatarStored, AvatarUpload, PrivacyBody, PrivacyOut, PublicProfile } from '../../schemas/profiles.js';
import { UsernameParams } from '../../schemas/marketplace.js';

const tags = ['profiles'];

export const profileRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/me/privacy',
    summary: 'Show or hide own collection on the public profile',
    description:
      'false (the default): the profile shows only member-since, the avatar and seller listings; true: also the collection grid and its value.',
    tags,
    access: 'auth',
    body: PrivacyBody,
    response: PrivacyOut,
    handler: async ({ body, caller }) => setPrivacy(deps.db, caller.account.id, body.is_collection_public),
  }),
  defineRoute({
    method: 'post',
    path: '/me/avatar',
    summary: 'Upload own avatar',
    description:
      'multipart/form-data with the picture in `file`: JPEG, PNG or WebP recognised by content, at most 5 MB (413 beyond, 415 for anything else, 422 without a file). Cropped to 256×256 around what draws the eye, re-encoded as WebP without metadata, served from this origin.',
    tags,
    access: 'auth',
    body: AvatarUpload,
    bodyType: 'multipart',
    response: AvatarStored,
    status: 201,
    errors: [413, 415],
    // ctx: the picture is an upload, read from the request's stream.
    handler: async ({ caller, ctx }) =>
      uploadAvatar(
        deps.db,
        deps.images,
        caller.account.id,
        (await readUploadedFile(ctx, { field: 'file', maxBytes: AVATAR_MAX_BYTES })).file,
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/users/{username}',
    summary: 'A user’s public profile',
    tags,
    params: UsernameParams,
    response: PublicProfile,
    errors: [404],
    handler: async ({ params }) => presentPublicProfile(await publicProfile(deps.db, params.username)),
  }),
];

// The mobile apps' version manifest (spec: GET /api/app/latest; POST /api/admin/app/version,
// whose body the spec does not show).
import { freeText, z } from './common.js';

const SEMVER = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;
export const AppVersion = z
  .string()
  .regex(SEMVER, { message: 'a version is MAJOR.MINOR.PATCH, each part 0 to 999999' })
  .openapi({ example: '2.4.0' });
export const Platform = z.enum(['ios', 'android']);

/** Compares two MAJOR.MINOR.PATCH versions part by part: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

export const AppLatestQuery = z.strictObject({
  platform: Platform,
  current_version: AppVersion.optional().openapi({
    description: 'the version the app runs: the answer then says whether an update is available or required',
  }),
});

export const AppManifest = z
  .object({
    platform: Platform,
    latest_version: z.string(),
    min_supported_version: z.string().openapi({ description: 'older versions must update before use' }),
    release_notes: z.string(),
    download_url: z.string().nullable(),
    released_at: z.string(),
    update_available: z
      .boolean()
      .nullable()
      .openapi({ description: 'current_version is below latest_version; null without current_version' }),
    update_required: z
      .boolean()
      .nullable()
      .openapi({ description: 'current_version is below min_supported_version; null without current_version' }),
  })
  .openapi('AppManifest');

export const PublishAppVersionBody = z
  .strictObject({
    platform: Platform,
    version: AppVersion.openapi({ description: 'above every version published for the platform (else 409)' }),
    min_supported_version: AppVersion.optional().openapi({
      description: "at most version; defaults to the previous release's minimum (the version itself for the first release)",
    }),
    release_notes: freeText({ min: 0, max: 2000 }).default(''),
    download_url: z
      .string()
      .max(500)
      .regex(/^https:\/\/[^\s/?#]+[^\s]*$/, { message: 'must be an https URL' })
      .optional()
      .openapi({ description: 'https store or download page' }),
  })
  .superRefine((b, ctx) => {
    if (b.min_supported_version && compareVersions(b.min_supported_version, b.version) > 0)
      ctx.addIssue({ code: 'custom', path: ['min_supported_version'], message: 'min_supported_version must not be above version' });
  })
  .openapi('PublishAppVersion');

// The mobile apps' release manifest: one typed function per query file.
import { z } from 'zod';
import { pgQuery, rows } from './typedQuery.js';

export const AppVersionRow = z.object({
  platform: z.enum(['ios', 'android']),
  latest_version: z.string(),
  min_supported_version: z.string(),
  release_notes: z.string(),
  download_url: z.string().nullable(),
  released_at: z.string(),
});

/** The highest published version of a platform (no row before the first). */
export const latestAppVersion = pgQuery<[platform: string], typeof AppVersionRow>('appVersions/app_version_latest', AppVersionRow);
/** Publishes a version above every published one; no row when it is not above them. */
export const publishAppVersion = pgQuery<
  [platform: string, version: string, minSupported: string | null, notes: string, downloadUrl: string | null, publishedBy: string],
  typeof rows.id
>('appVersions/app_version_publish', rows.id);

// The mobile apps' version manifest: what the apps ask at launch, and what an operator publishes.
import { DomainError } from '../../schemas/errors.js';
import { compareVersions, type AppManifest, type PublishAppVersionBody } from '../../schemas/appVersions.js';
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { latestAppVersion, publishAppVersion } from '../../sql/appVersions.js';

type Manifest = z.input<typeof AppManifest>;

/** The platform's latest release, and for a given running version whether it should or must update. */
export async function latestManifest(db: Db, platform: 'ios' | 'android', currentVersion?: string): Promise<Manifest> {
  const [latest] = await latestAppVersion(db, platform);
  if (!latest) throw new DomainError('not_found', `No ${platform} version is published yet`);
  return {
    ...latest,
    update_available: currentVersion === undefined ? null : compareVersions(currentVersion, latest.latest_version) < 0,
    update_required: currentVersion === undefined ? null : compareVersions(currentVersion, latest.min_supported_version) < 0,
  };
}

/** Publishes a release above every earlier one of its platform; 409 for one that is not. */
export async function publishVersion(db: Db, input: z.output<typeof PublishAppVersionBody>, publishedBy: string): Promise<Manifest> {
  let published: unknown[];
  try {
    published = await publishAppVersion(
      db,
      input.platform,
      input.version,
      input.min_supported_version ?? null,
      input.release_notes,
      input.download_url ?? null,
      publishedBy,
    );
  } catch (err) {
    // Two operators publishing the same version at once: the second meets the unique key.
    if ((err as { code?: string }).code !== '23505') throw err;
    published = [];
  }
  if (published.length === 0) {
    const [latest] = await latestAppVersion(db, input.platform);
    throw new DomainError(
      'conflict',
      `${input.platform} ${input.version} is not above the latest published version (${latest?.latest_version})`,
    );
  }
  return latestManifest(db, input.platform);
}

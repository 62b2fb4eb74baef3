// Listing photos (spec: POST /api/upload/listing-image): uploaded once, kept re-encoded on our
// origin, and usable in the uploader's own listings only.
import type { Db } from '../../sql/stores/db.js';
import { DomainError, InvalidInput } from '../../schemas/errors.js';
import { WATERMARK_MIN_SIDE, type ImageStore } from '../../sql/stores/images.js';
import { listingImagesOf, recordListingImage } from '../../sql/listings.js';

export const LISTING_IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const URL_PATTERN = /^\/static\/images\/listings\/([0-9a-f]{64}\.webp)$/;

export const listingImageUrl = (name: string) => `/static/images/listings/${name}`;

/** The verification band of a watermarked photo: whose it is, since when, and where to check a listing. */
export const verificationLine = (username: string, siteOrigin: string, day = new Date().toISOString().slice(0, 10)) =>
  `Holo · @${username} · ${day} · verify at ${new URL(siteOrigin).host}/verify`;

export async function uploadListingImage(
  db: Db,
  images: ImageStore,
  userId: number,
  upload: Buffer,
  watermark?: string,
): Promise<{ url: string; size: number }> {
  const kept = await images.storeUpload('listings', upload, { watermark });
  if ('refused' in kept) {
    if (kept.refused === 'not_a_picture')
      throw new DomainError(
        'unsupported_media_type',
        'the file is not a readable JPEG, PNG or WebP picture (recognised by its content, not its name)',
      );
    throw new InvalidInput([
      {
        loc: ['body', 'file'],
        msg: `a watermarked photo needs at least ${WATERMARK_MIN_SIDE} px on its shorter side`,
        type: 'value_error.picture.too_small',
      },
    ]);
  }
  await recordListingImage(db, kept.name, userId, kept.size);
  return { url: listingImageUrl(kept.name), size: kept.size };
}

/** Refuses image_urls that are not the seller's own uploads (400, naming the first). */
export async function checkListingImageUrls(db: Db, sellerId: number, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  const names = urls.map((u) => URL_PATTERN.exec(u)?.[1] ?? null);
  const owned = new Set(
    (
      await listingImagesOf(
        db,
        sellerId,
        names.filter((n): n is string => n !== null),
      )
    ).map((r) => r.name),
  );
  const foreign = urls.find((_, i) => !names[i] || !owned.has(names[i]!));
  if (foreign !== undefined)
    throw new DomainError('invalid', `image_urls: ${foreign} is not a picture you uploaded with POST /api/upload/listing-image`);
}

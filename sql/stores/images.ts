// On-disk image store under HOLO_DATA_DIR/images: originals fetched from upstream, and derived
// AVIF/WebP files generated once by sharp and then served from disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

export type ImageKind = 'small' | 'large';
export const PLACEHOLDER_SIZE = { width: 367, height: 512 } as const;
export type ImageFormat = 'avif' | 'webp';
export const DISPLAY_WIDTH: Record<ImageKind, number> = { small: 245, large: 734 };

export class ImageStore {
  constructor(readonly root: string) {}

  originalPath(cardId: number, kind: ImageKind): string {
    return path.join(this.root, 'originals', `${cardId}-${kind}`);
  }

  hasOriginal(cardId: number, kind: ImageKind): boolean {
    return fs.existsSync(this.originalPath(cardId, kind));
  }

  async saveOriginal(cardId: number, kind: ImageKind, bytes: Buffer): Promise<void> {
    // Only pictures sharp can read are kept; anything else is refused here, not at serve time.
    await sharp(bytes).metadata();
    await this.writeAtomically(this.originalPath(cardId, kind), bytes);
  }

  /** Cards whose own picture (small or large) the store holds, ascending. */
  async cardsWithOriginals(): Promise<number[]> {
    const names = await fsp.readdir(path.join(this.root, 'originals')).catch(() => [] as string[]);
    const ids = new Set<number>();
    for (const n of names) {
      const m = /^(\d+)-(small|large)$/.exec(n);
      if (m) ids.add(Number(m[1]));
    }
    return [...ids].sort((a, b) => a - b);
  }

  /** A card's best picture for recognition: the large one when held, else the small one. */
  bestOriginal(cardId: number): string | null {
    for (const kind of ['large', 'small'] as const) if (this.hasOriginal(cardId, kind)) return this.originalPath(cardId, kind);
    return null;
  }

  /** The derived file for a picture, generated on first use. */
  async derived(cardId: number, kind: ImageKind | 'placeholder', format: ImageFormat, render: () => Promise<Buffer>): Promise<string> {
    const file = path.join(this.root, 'derived', `${cardId}-${kind}.${format}`);
    if (fs.existsSync(file)) return file;
    const source = await render();
    const pipeline = sharp(source);
    const out = await (format === 'avif' ? pipeline.avif({ quality: 55, effort: 2 }) : pipeline.webp({ quality: 80 })).toBuffer();
    await this.writeAtomically(file, out);
    return file;
  }

  async resizedOriginal(cardId: number, kind: ImageKind): Promise<Buffer> {
    return sharp(this.originalPath(cardId, kind)).resize({ width: DISPLAY_WIDTH[kind], withoutEnlargement: true }).png().toBuffer();
  }

  /** Forgets derived files of a card, after its original changed. */
  async dropDerived(cardId: number): Promise<void> {
    const dir = path.join(this.root, 'derived');
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => n.startsWith(`${cardId}-`)).map((n) => fsp.rm(path.join(dir, n), { force: true })));
  }

  /** Where an uploaded picture (a listing photo, an avatar) is kept. */
  uploadedPath(kind: UploadKind, name: string): string {
    return path.join(this.root, kind, name);
  }

  /**
   * An uploaded picture as we keep it: recognised by content (JPEG, PNG or WebP) and decodable,
   * turned upright and re-encoded as WebP, which drops every metadata block (EXIF with its GPS
   * position, ICC, XMP). A listing photo: at most 1,600 px a side; with `watermark`, that line
   * drawn in a band along its foot (a photo too small to carry it legibly is refused). An avatar:
   * cropped to 256×256 around what draws the eye (sharp's attention strategy). Named by its
   * SHA-256, so the same picture is one file.
   */
  async storeUpload(
    kind: UploadKind,
    upload: Buffer,
    opts: { watermark?: string } = {},
  ): Promise<{ name: string; size: number } | { refused: 'not_a_picture' | 'too_small_for_watermark' }> {
    let kept: Buffer;
    try {
      const { format } = await sharp(upload).metadata();
      if (format !== 'jpeg' && format !== 'png' && format !== 'webp') return { refused: 'not_a_picture' };
      const upright =
        kind === 'avatars'
          ? sharp(upload).rotate().resize({ width: AVATAR_SIDE, height: AVATAR_SIDE, fit: 'cover', position: sharp.strategy.attention })
          : sharp(upload).rotate().resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true });
      if (opts.watermark) {
        // Raw pixels in between: one lossy encoding, as without the band.
        const { data, info } = await upright.raw().toBuffer({ resolveWithObject: true });
        if (Math.min(info.width, info.height) < WATERMARK_MIN_SIDE) return { refused: 'too_small_for_watermark' };
        kept = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
          .composite([{ input: watermarkBand(opts.watermark, info.width), gravity: 'south' }])
          .webp({ quality: 85 })
          .toBuffer();
      } else kept = await upright.webp({ quality: 85 }).toBuffer();
    } catch {
      // A header that looks right over pixels that do not decode (truncated, corrupt).
      return { refused: 'not_a_picture' };
    }
    const name = `${crypto.createHash('sha256').update(kept).digest('hex')}.webp`;
    await this.writeAtomically(this.uploadedPath(kind, name), kept);
    return { name, size: kept.length };
  }

  private async writeAtomically(file: string, bytes: Buffer): Promise<void> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fsp.writeFile(tmp, bytes);
    await fsp.rename(tmp, file);
  }
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export type UploadKind = 'listings' | 'avatars';
export const AVATAR_SIDE = 256;

/** The shorter side a photo needs for a legible verification band (px, after bounding to 1,600). */
export const WATERMARK_MIN_SIDE = 200;

/** A translucent band the photo's width; the line's size fits it (DejaVu Sans averages 0.6 em a character). */
function watermarkBand(line: string, width: number): Buffer {
  const fontSize = Math.max(8, Math.floor(Math.min(width / 40, (width * 0.94) / (line.length * 0.6))));
  const height = Math.round(fontSize * 1.9);
  const pad = Math.round(fontSize * 0.6);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="${width}" height="${height}" fill="#000" fill-opacity="0.5"/>
  <text x="${pad}" y="${Math.round(height * 0.68)}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#fff">${escapeXml(line)}</text>
</svg>`);
}

/** A card-shaped picture naming the card, for cards whose picture we do not hold. */
export function placeholderSvg(name: string, setName: string, number: string): Buffer {
  const { width, height } = PLACEHOLDER_SIZE;
  const short = name.length > 26 ? `${name.slice(0, 25)}…` : name;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b3a55"/><stop offset="1" stop-color="#151b29"/></linearGradient></defs>
  <rect x="4" y="4" width="${width - 8}" height="${height - 8}" rx="18" fill="url(#g)" stroke="#c9a227" stroke-width="6"/>
  <rect x="28" y="60" width="${width - 56}" height="230" rx="8" fill="#0e1320" stroke="#3d4b66"/>
  <text x="${width / 2}" y="185" font-family="DejaVu Sans, sans-serif" font-size="64" fill="#3d4b66" text-anchor="middle">?</text>
  <text x="${width / 2}" y="345" font-family="DejaVu Sans, sans-serif" font-size="22" font-weight="bold" fill="#f1f1f1" text-anchor="middle">${escapeXml(short)}</text>
  <text x="${width / 2}" y="380" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#b8c1d6" text-anchor="middle">${escapeXml(setName)} · ${escapeXml(number)}</text>
  <text x="${width / 2}" y="${height - 36}" font-family="DejaVu Sans, sans-serif" font-size="13" fill="#7d8aa5" text-anchor="middle">image not available yet · holo</text>
</svg>`);
}

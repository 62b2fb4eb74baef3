// A reference scan (a catalogue picture, already cut to the card) reduced to its features.
import sharp from 'sharp';
import { CARD_HEIGHT, CARD_WIDTH, cardFeatures, type CardFeatures } from './features.js';
import type { Cv } from './opencv.js';
import { MAX_PHOTO_PIXELS } from './photo.js';

/** The share of the card's width its printed border takes on each side (Pokémon ~4 %, Lorcana ~4.5 %). */
const BORDER = 0.045;

/**
 * A card's features twice: the whole card, and the card inside its printed border. A black border
 * on a dark table, or a silver one on a grey table, leaves only the inner frame to be found; the
 * second entry matches that cut as well as the first matches the whole card.
 */
export async function referenceFeatures(cv: Cv, picture: Buffer | string): Promise<CardFeatures[]> {
  const flat = sharp(picture, { limitInputPixels: MAX_PHOTO_PIXELS })
    .flatten({ background: '#808080' })
    .removeAlpha()
    .toColourspace('srgb');
  const { data, info } = await flat.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };
  const inset = Math.round(BORDER * info.width);
  const whole = await sharp(data, raw).resize(CARD_WIDTH, CARD_HEIGHT, { fit: 'fill' }).raw().toBuffer();
  const inner = await sharp(data, raw)
    .extract({ left: inset, top: inset, width: info.width - 2 * inset, height: info.height - 2 * inset })
    .resize(CARD_WIDTH, CARD_HEIGHT, { fit: 'fill' })
    .raw()
    .toBuffer();
  return [whole, inner].map((b) => cardFeatures(cv, new Uint8Array(b.buffer, b.byteOffset, b.length)));
}

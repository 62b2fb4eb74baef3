// A card's picture as a file to send: the upstream picture resized when we hold it, else a rendered
// placeholder naming the card, each encoded once per format and kept (sql/stores/images.ts).
import type { Db } from '../../sql/stores/db.js';
import { cardImageSubject } from '../../sql/cardImages.js';
import { placeholderSvg, type ImageFormat, type ImageStore } from '../../sql/stores/images.js';
import { NotFound } from '../../schemas/errors.js';

export type { ImageFormat };

/** The file of a card's picture in `format`, and whether it is the real picture (404: no such card, or no such picture). */
export async function cardImageFile(
  db: Db,
  images: ImageStore,
  cardId: number,
  kind: 'small' | 'large' | 'placeholder',
  format: ImageFormat,
): Promise<{ file: string; real: boolean }> {
  const real = kind !== 'placeholder' && images.hasOriginal(cardId, kind);
  const rows = await cardImageSubject(db, cardId, kind);
  const card = rows[0];
  if (!card || (kind !== 'placeholder' && !card.has_kind && !real)) throw new NotFound('image');
  const file = real
    ? await images.derived(cardId, kind, format, () => images.resizedOriginal(cardId, kind as 'small' | 'large'))
    : await images.derived(cardId, 'placeholder', format, async () => placeholderSvg(card.name, card.set_name, card.collector_number));
  return { file, real };
}

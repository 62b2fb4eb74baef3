// Image URLs on our own origin. The same URL serves AVIF or WebP by the request's Accept header.
import { PLACEHOLDER_SIZE, type ImageKind } from '../../sql/stores/images.js';

export type { ImageKind };

export function cardImageUrl(cardId: number, kind: ImageKind): string {
  return `/static/images/cards/${cardId}/${kind}`;
}

export function placeholderImage(cardId: number) {
  return {
    url: `/static/images/cards/${cardId}/placeholder`,
    source: 'holo',
    width: PLACEHOLDER_SIZE.width,
    height: PLACEHOLDER_SIZE.height,
    format: 'avif',
    is_placeholder: true,
  };
}

// Image URLs on our own origin. The same URL serves AVIF or WebP by the request's Accept header.
export type ImageKind = 'small' | 'large';

export const PLACEHOLDER_SIZE = { width: 367, height: 512 } as const;

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

// Shapes what the legacy catalogue service (catalogue.ts) returns into the routes' responses (schemas/legacy.ts).
import type { z } from 'zod';
import type {
  CompareResponse,
  LegacyCardDetail,
  MarketplaceUrlsQuery,
  RelatedLanguages,
  SealedList,
  TopCards,
} from '../../schemas/legacy.js';
import type { cardOfGame, comparedCards, marketplaceUrlsOf, relatedLanguagesOf, sealedOfGame, topCardsOfSet } from './catalogue.js';

type Of<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** A page and the paging it was asked with. */
export const presentPage = <P extends object>(page: P, query: { limit: number; offset: number }) => ({
  ...page,
  limit: query.limit,
  offset: query.offset,
});

export const presentTopCardsOfSet = (cards: Of<typeof topCardsOfSet>): z.input<typeof TopCards> =>
  cards.map((c) => ({
    card_id: c.id,
    name: c.name,
    number: c.number,
    rarity: c.rarity,
    image_url: c.local_image_url,
    best_price: c.best_price!,
    currency: 'USD' as const,
    tcg_slug: c.tcg_slug,
  }));

export const presentRelatedLanguages = (setId: number, r: Of<typeof relatedLanguagesOf>): z.input<typeof RelatedLanguages> => ({
  set_id: setId,
  language: r.language,
  related: r.related,
});

export const presentCompared = (c: Of<typeof comparedCards>): z.input<typeof CompareResponse> => ({
  items: c.cards.map(({ set_code: _code, ...card }) => ({ ...card, currency: 'USD' as const })),
  missing: c.missing,
  cheapest_card_id: c.cheapest,
  dearest_card_id: c.dearest,
});

export const presentMarketplaceUrls = (
  cardId: number,
  query: z.output<typeof MarketplaceUrlsQuery>,
  urls: Of<typeof marketplaceUrlsOf>,
) => ({
  card_id: cardId,
  variant: query.variant,
  ...urls,
});

export const presentSealedPage = (page: Of<typeof sealedOfGame>, query: { limit: number; offset: number }): z.input<typeof SealedList> => ({
  items: page.items.map(({ prices: _p, ...p }) => p),
  total: page.total,
  limit: query.limit,
  offset: query.offset,
});

export function presentCardOfGame(card: Of<typeof cardOfGame>): z.input<typeof LegacyCardDetail> {
  const { set_name: _s, set_code: _c, tcg_slug: _t, best_price: _b, ...detail } = card;
  return detail;
}

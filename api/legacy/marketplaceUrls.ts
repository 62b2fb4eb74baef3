// Buy-now links for a card on the European marketplace (Cardmarket), the US marketplace
// (TCGplayer) and the auction site (eBay). A known product id links to the product page; without
// one the link is the marketplace's own search for the card, so it is never a dead end.
const CARDMARKET_GAME: Record<string, string> = {
  pokemon: 'Pokemon',
  mtg: 'Magic',
  'flesh-and-blood': 'FleshAndBlood',
  lorcana: 'Lorcana',
};
const TCGPLAYER_GAME: Record<string, string> = {
  pokemon: 'pokemon',
  mtg: 'magic',
  'flesh-and-blood': 'flesh-and-blood-tcg',
  lorcana: 'lorcana-tcg',
};
// The words sellers use for a variant in listing titles.
const VARIANT_WORDS: Record<string, string> = {
  normal: '',
  holofoil: 'holo',
  'reverse-holo': 'reverse holo',
  foil: 'foil',
  'etched-foil': 'etched foil',
  '1st-edition': '1st edition',
  shadowless: 'shadowless',
  prerelease: 'prerelease',
};

export function marketplaceUrls(
  card: { name: string; number: string; set_name: string; game: string; eu: string | null; us: string | null },
  variant: string,
): { european_marketplace_url: string; us_marketplace_url: string; auction_url: string } {
  const words = VARIANT_WORDS[variant] ?? variant.replaceAll('-', ' ');
  const search = [card.name, card.number, card.set_name, words].filter(Boolean).join(' ');
  const cmGame = CARDMARKET_GAME[card.game] ?? card.game;
  return {
    european_marketplace_url: card.eu
      ? `https://www.cardmarket.com/en/${cmGame}/Products?idProduct=${encodeURIComponent(card.eu)}`
      : `https://www.cardmarket.com/en/${cmGame}/Products/Search?searchString=${encodeURIComponent(`${card.name} ${card.set_name}`)}`,
    us_marketplace_url: card.us
      ? `https://www.tcgplayer.com/product/${encodeURIComponent(card.us)}`
      : `https://www.tcgplayer.com/search/${TCGPLAYER_GAME[card.game] ?? 'all'}/product?q=${encodeURIComponent(`${card.name} ${card.number}`)}`,
    auction_url: `https://www.ebay.com/sch/i.html?_nkw=${encodeURIComponent(search)}&LH_BIN=1`,
  };
}

// Shapes the listings service's rows (listings.ts) into the responses (schemas/marketplace.ts): a
// listing as the caller may see it, the seller's own id left inside.
import type { z } from 'zod';
import type { ListingPage } from '../../schemas/marketplace.js';
import type { Listing, ListingRow, ListingRows } from './listings.js';

export const presentListing = ({ seller_id: _seller, ...listing }: ListingRow): Listing => listing;

export const presentListingPage = ({ items, total }: ListingRows): z.infer<typeof ListingPage> => ({
  items: items.map(presentListing),
  total,
});

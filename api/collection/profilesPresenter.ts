// Shapes a public profile (profiles.ts) into the response (schemas/profiles.ts): its listings and
// collection entries as the listings and collection routes answer them.
import type { z } from 'zod';
import type { PublicProfile } from '../../schemas/profiles.js';
import { presentListing } from '../marketplace/listingsPresenter.js';
import { presentEntry } from './entriesPresenter.js';
import type { ProfileRows } from './profiles.js';

export const presentPublicProfile = (p: ProfileRows): z.infer<typeof PublicProfile> => ({
  ...p,
  listings: p.listings.map(presentListing),
  collection: p.collection && { ...p.collection, items: p.collection.items.map(presentEntry) },
});

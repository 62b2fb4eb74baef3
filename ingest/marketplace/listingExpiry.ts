// Listings past their 60 days become expired (the expiry schedule runs this hourly), and each
// seller gets an e-mail with a renewal link (a signed, single-use token valid 7 days) through the
// outbox. Expiring a listing, keeping its token and queueing the e-mail are one transaction.
import type pg from 'pg';
import { pgTransaction } from '../../sql/stores/db.js';
import { expireDueListings, insertRenewalToken } from '../../sql/listings.js';
import { queueEmail } from '../events/email.js';
import type { Tokens } from '../../sql/runtime/signedTokens.js';
import { issueRenewalToken, RENEWAL_TOKEN_DAYS } from './renewalTokens.js';

const PER_RUN = 1000;

/** Expires what is due, in pages; how many listings expired. */
export async function expireListings(pool: pg.Pool, renewal: { tokens: Tokens; siteOrigin: string }): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await pgTransaction(pool, async (client) => {
      const due = await expireDueListings(client, PER_RUN);
      for (const listing of due) {
        const { token, nonceSha256, expiresAt } = await issueRenewalToken(renewal.tokens, listing.listing_id);
        await insertRenewalToken(client, nonceSha256, listing.listing_id, expiresAt);
        if (!listing.email) continue;
        await queueEmail(client, {
          userId: listing.seller_id,
          to: listing.email,
          kind: 'listing_expired',
          subject: `Your listing of ${listing.card_name} has expired`,
          text:
            `Your listing ${listing.listing_id} (${listing.card_name}, EUR ${listing.price.toFixed(2)}) reached the end of its 60 days.\n\n` +
            `Renew it for 30 more days with one click (the link works once, for ${RENEWAL_TOKEN_DAYS} days):\n` +
            `${renewal.siteOrigin}/listing-renewal/${token}\n`,
        });
      }
      return due.length;
    });
    total += expired;
    if (expired < PER_RUN) return total;
  }
}

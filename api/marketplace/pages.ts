// The marketplace's public HTML pages, plain and server-rendered like the developer portal's.
import { Html, html, withLineBreaks } from '../portal/html.js';
import type { Listing, VerificationRecord } from './listings.js';

// A style element, not a style attribute: the Content-Security-Policy allows it by its SHA-256
// (api/middleware/securityHeaders.ts), which no attribute can be without 'unsafe-hashes'.
export const MARKETPLACE_PAGE_STYLE = 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}';
const style = new Html(`<style>${MARKETPLACE_PAGE_STYLE}</style>`);

function page(title: string, body: ReturnType<typeof html>): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Holo</title>${style}</head>
<body>
<h1>${title}</h1>
${body}
</body>
</html>`.value;
}

export function renewedPage(listing: Listing): string {
  const until = new Date(listing.expires_at).toUTCString();
  return page(
    'Listing renewed',
    html`<p>Your listing of <strong>${listing.card_name}</strong> (${listing.set_name}, ${listing.condition}, EUR ${listing.price.toFixed(2)}) is open again until <strong>${until}</strong>.</p>
<p>It has been renewed ${listing.renewal_count} time(s). Its verification code is <code>${listing.verification_code}</code>.</p>
<p><a href="/api/listings/${listing.id}">See the listing</a></p>`,
  );
}

export function verifySearchPage(): string {
  return page(
    'Check a listing photo',
    html`<p>Every Holo listing has a verification code its seller writes on the card's photos. Type it here to see the listing it belongs to.</p>
<form method="get" action="/verify">
  <label>Verification code <input name="code" required minlength="6" maxlength="8" autocapitalize="characters" autocomplete="off"></label>
  <button type="submit">Check</button>
</form>
<p><a href="/help/verify-photo">How to photograph a card with its code</a></p>`,
  );
}

export function redirectPage(to: string): string {
  return page('Redirecting', html`<p><a href="${to}">Continue</a></p>`);
}

export function verifyResultPage(record: VerificationRecord, thumbnail: string | null): string {
  if (!record.valid)
    return page(
      'No listing with this code',
      html`<p>The code <code>${record.code}</code> does not belong to a current listing: it may be mistyped (codes have 6 to 8 characters and never use 0, O, 1 or I), or its listing expired or was withdrawn.</p>
<p><a href="/verify">Check another code</a></p>`,
    );
  return page(
    `Code ${record.code}: ${record.card_name ?? ''}`,
    html`${thumbnail ? html`<p><img src="${thumbnail}" alt="${record.card_name}" width="245"></p>` : ''}
<p><strong>${record.card_name}</strong>, ${record.set_name}, condition ${record.condition}, listed by <strong>${record.seller_display_name ?? record.seller_username}</strong> (@${record.seller_username}, ${record.status}).</p>
${record.description ? html`<p>${withLineBreaks(record.description)}</p>` : ''}
<p><a href="${record.listing_url}">See the listing</a> · <a href="/verify">Check another code</a></p>`,
  );
}

export function verifyHelpPage(): string {
  return page(
    'Photographing a card with its verification code',
    html`<ol>
<li>Write the listing's verification code on a slip of paper (it is on the listing and in its confirmation).</li>
<li>Lay the slip next to the card, both fully in the frame, in even light, without glare on the card.</li>
<li>Take the front and the back. Buyers check the code at <a href="/verify">/verify</a>: it names the card and the seller.</li>
</ol>`,
  );
}

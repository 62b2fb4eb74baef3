// The marketplace's public HTML pages, plain and server-rendered like the developer portal's.
import { html } from '../portal/html.js';
import type { Listing } from './listings.js';

function page(title: string, body: ReturnType<typeof html>): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Holo</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
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

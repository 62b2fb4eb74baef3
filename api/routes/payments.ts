// The payment provider's calls (issue 15 §6; a path of ours): Stripe's signed webhook events.
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../http/route.js';
import { readRawBody } from '../http/upload.js';
import { receiveStripeEvent } from '../marketplace/payments.js';
import { StripeEventBody, StripeEventReceipt, StripeSignatureHeaders } from '../../schemas/payments.js';

/** Stripe's events are a few kilobytes; a checkout session with many line items stays far below this. */
const MAX_EVENT_BYTES = 512 * 1024;

export const paymentRoutes = (deps: AppDeps) => [
  defineRoute({
    method: 'post',
    path: '/api/payments/stripe/webhook',
    summary: 'Stripe’s webhook: a signed event that settles a checkout',
    description:
      'Register this URL in Stripe for checkout.session.completed, checkout.session.async_payment_succeeded and checkout.session.expired, and set its signing secret as STRIPE_WEBHOOK_SECRET. The Stripe-Signature header must sign the exact body (tolerance 5 minutes): otherwise 400 and nothing changes. A completed, paid session moves its transaction to paid once, however often Stripe delivers the event; `outcome` says what the event did. Not rate limited: only the signature counts.',
    tags: ['payments'],
    access: 'signed',
    bodyType: 'raw',
    headers: StripeSignatureHeaders,
    body: StripeEventBody,
    response: StripeEventReceipt,
    errors: [400, 413, 503],
    // ctx: the signature covers the exact bytes, read raw from the request's stream.
    handler: async ({ headers, ctx }) =>
      receiveStripeEvent(
        { db: deps.db, payments: deps.stores.payments, log: deps.log },
        await readRawBody(ctx, MAX_EVENT_BYTES),
        headers['stripe-signature'],
      ),
  }),
];

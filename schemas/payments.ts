// Payments (issue 15 §6): the checkout's answer and the Stripe webhook's request and receipt.
import { z } from './common.js';

export const CheckoutOut = z
  .object({ checkout_url: z.string().openapi({ description: 'the Stripe Checkout page, also in the Location header' }) })
  .openapi('Checkout');

/** What Stripe posts (documentation: the handler verifies the exact bytes before reading them). */
export const StripeEventBody = z
  .object({
    id: z.string().openapi({ example: 'evt_1QxYz' }),
    type: z.string().openapi({ example: 'checkout.session.completed' }),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .openapi('StripeEvent', {
    description: 'A Stripe event, signed in the Stripe-Signature header with the endpoint’s signing secret (STRIPE_WEBHOOK_SECRET).',
  });

export const StripeSignatureHeaders = z.object({
  'stripe-signature': z.string().openapi({
    description: 'Stripe’s signature of the exact body: t=<unix time>,v1=<HMAC-SHA256 hex>; missing or wrong: 400',
    example: 't=1795452633,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  }),
});

export const STRIPE_EVENT_OUTCOMES = [
  'paid',
  'duplicate',
  'already_settled',
  'not_paid_yet',
  'amount_mismatch',
  'paid_after_cancel',
  'unknown_session',
  'session_expired',
  'ignored',
] as const;

export const StripeEventReceipt = z
  .object({
    received: z.literal(true),
    outcome: z.enum(STRIPE_EVENT_OUTCOMES).openapi({
      description:
        'paid: the transaction is paid; duplicate: this event was processed before; already_settled: its session paid already; not_paid_yet: a delayed payment method, async_payment_succeeded follows; amount_mismatch, unknown_session, paid_after_cancel: not applied (logged for an operator to refund); session_expired: the page can no longer be paid; ignored: an event type Holo does not use',
    }),
  })
  .openapi('StripeEventReceipt');

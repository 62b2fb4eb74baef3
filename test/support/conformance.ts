// The conformance suite's shared part: /openapi.json against an outside client, schemathesis (the
// OpenAPI fuzzer), run against a live stack with Temporal (so the operator endpoints answer) as one
// kind of caller: no 5xx, no undocumented status, no response off its schema, no schema-valid
// request refused beyond the preconditions below, every wrong method a 405 with Allow. The callers
// are split over two test files (conformance.test.ts, conformance-accounts.test.ts), each with its
// own stack, so each file's fuzzing fits well inside the suite's per-file timeout and the two run
// side by side.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../schemas/config.js';
import { silentLogger } from '../../sql/runtime/log.js';
import { freePort } from '../../sql/runtime/ports.js';
import { feedPairs } from '../../ingest/upstreams/registry.js';
import { ensureSchedules } from '../../workflows/schedules.js';
import { startTemporal, type TemporalServer } from '../../workflows/temporalServer.js';
import { accountWithKey } from './accounts.js';
import { call } from './http.js';
import { fuzz, type Precondition, type SchemeAuth } from './schemathesis.js';
import { startStack, type Stack } from './stack.js';

// The WebSocket stream is not an HTTP operation OpenAPI can describe: a plain GET is refused with
// 426 by design (stream.test.ts covers it). The operators' status stream never ends by design (a
// fuzzer would wait on it until its timeout); status.test.ts covers it.
export const EXCLUDED = ['/api/v1/stream', '/admin/status/stream'];
const SEED = 20261123;
const EXAMPLES = 8;

/** Valid requests the server may refuse for reasons the schema cannot state; each one said why. */
export const PRECONDITIONS: Precondition[] = [
  { operation: 'POST /auth/register', statuses: [400], why: 'the spec answers a taken username or e-mail with 400' },
  { operation: 'POST /auth/register-seller', statuses: [400], why: 'as registration' },
  { operation: 'POST /auth/account/delete-request', statuses: [400], why: 'confirm must read "DELETE <own username>"' },
  { operation: 'DELETE /auth/account', statuses: [400], why: 'confirm must read "DELETE <own username>", a day after the request' },
  { operation: 'POST /auth/account/delete-cancel', statuses: [400], why: 'there must be a pending request to cancel' },
  { operation: 'POST /auth/change-password', statuses: [400], why: 'the current password must be the right one' },
  { operation: 'POST /api/keys/', statuses: [422], why: 'expires_at must lie in the future' },
  { operation: 'POST /seller/listings', statuses: [400], why: 'image_urls must be URLs the listing-image upload returned' },
  { operation: 'PATCH /seller/listings/{listing_id}', statuses: [400], why: 'as creation' },
  {
    operation: 'POST /api/listings/{listing_id}/buy-now',
    statuses: [400],
    why: "the spec's buy-now table: buy_now_disabled, self_buy (own listing), listing_unavailable (sold or expired)",
  },
  {
    operation: 'POST /seller/listings/{listing_id}/bid',
    statuses: [400],
    why: 'never on an own listing, only where the listing takes offers',
  },
  { operation: 'POST /api/messages', statuses: [400], why: 'not to oneself' },
  {
    operation: 'POST /api/devices/register',
    statuses: [400],
    why: 'a web subscription’s endpoint must be a URL a push may go to: https and public in production (plain http to loopback in development), as webhook URLs',
  },
  { operation: 'POST /api/blocks/{user_id}', statuses: [400], why: 'not oneself' },
  {
    operation: 'POST /api/upload/listing-image',
    statuses: [415, 422],
    why: 'the file must be a JPEG, PNG or WebP picture by its content; a watermarked one at least 200 px a side',
  },
  {
    operation: 'POST /api/payments/stripe/webhook',
    statuses: [400],
    why: 'Stripe-Signature must sign the exact body with the endpoint’s secret, which only Stripe (and the tests) hold',
  },
  {
    operation: 'POST /collection/import',
    statuses: [422],
    why: 'the file must be a CSV with the header card_id, quantity, condition, price_paid whose every row is good and names a known card',
  },
  {
    operation: 'POST /seller/stock/import',
    statuses: [422],
    why: 'the file must be a Cardmarket stock CSV whose every row is good and names a known product',
  },
  {
    operation: 'POST /api/webhooks',
    statuses: [422],
    why: 'the URL must be https (plain http only to loopback outside production) and, in production, public',
  },
  { operation: 'PATCH /api/webhooks/{webhook_id}', statuses: [422], why: 'as registration' },
  { operation: 'POST /api/admin/app/version', statuses: [422], why: 'min_supported_version must not be above version' },
  {
    operation: 'GET /api/price-intelligence/card/{id}/series',
    statuses: [422],
    why: 'start_date must not be after end_date (default today) nor more than 366 days before it',
  },
  { operation: 'POST /api/admin/ingest/runs', statuses: [422], why: 'source and game must name a feed that exists for the kind' },
  ...['GET /compat/pokemontcg/v2/cards', 'GET /compat/pokemontcg/v2/sets'].map((operation) => ({
    operation,
    statuses: [422],
    why: "q must parse in pokemontcg.io's search syntax (a grammar, not a pattern) and name fields it knows, with numbers where a field compares numbers",
  })),
  ...['POST /api/cards/recognize', 'POST /api/cards/detect-edges', 'POST /api/scan-sessions/{id}/upload-photo'].map((operation) => ({
    operation,
    statuses: [415, 422],
    why: 'the file must be a photo sharp decodes (JPEG, PNG, WebP, AVIF-coded HEIF) by its content, at least 64 px a side',
  })),
];

/** A live stack with Temporal's dev server beside it (so the operator endpoints answer), for fuzzing. */
export async function openConformanceStack(): Promise<{
  stack: Stack;
  sessionOf: (username: string, admin?: boolean) => Promise<{ session: string; key: string }>;
  close: () => Promise<void>;
}> {
  // Temporal's dev server in a directory of its own, so the operator endpoints have a cluster.
  const temporalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-fuzz-temporal-'));
  const temporal: TemporalServer = await startTemporal(loadConfig({ HOLO_DATA_DIR: temporalDir }), silentLogger(), {
    port: await freePort(),
  });
  const stack = await startStack({ env: { TEMPORAL_ADDRESS: temporal.address } });
  const client = new Client({ connection: await Connection.connect({ address: temporal.address }), namespace: 'default' });
  await ensureSchedules(client, { pairs: feedPairs() });
  await client.connection.close();
  return {
    stack,
    /** An account on the Unlimited tier (the fuzzer's volume should meet the API, not the tier's per-minute limit), signed in. */
    sessionOf: async (username, admin = false) => {
      const account = await accountWithKey(stack, username, 'unlimited', { admin });
      const login = await call(stack, 'POST', '/auth/login', { body: { username, password: 'long enough password' } });
      assert.equal(login.status, 200);
      return { session: login.cookie!.replace(/^tcg_session=/, ''), key: account.key };
    },
    close: async () => {
      await stack.close();
      await temporal.stop();
      await fs.rm(temporalDir, { recursive: true, force: true });
    },
  };
}

/** The four callers the document serves, signed in on a conformance stack: schemathesis' auth for each. */
export async function fuzzCallers(sessionOf: (username: string, admin?: boolean) => Promise<{ session: string; key: string }>) {
  const { key } = await sessionOf('fuzzkey');
  const { session: user } = await sessionOf('fuzzuser');
  const { session: admin } = await sessionOf('fuzzadmin', true);
  return {
    anonymous: {},
    'an API key': { apiKey: { bearer: key } },
    'a session': { sessionCookie: { api_key: user } },
    'an administrator': { sessionCookie: { api_key: admin } },
  } satisfies Record<string, SchemeAuth>;
}

/**
 * A stack started before the calling file's tests and stopped after them, with how to sign a
 * caller in and how to fuzz as one.
 */
export function conformanceStack() {
  let opened: Awaited<ReturnType<typeof openConformanceStack>>;
  before(async () => {
    opened = await openConformanceStack();
  });
  after(async () => {
    await opened?.close();
  });
  return {
    sessionOf: (username: string, admin = false) => opened.sessionOf(username, admin),
    expectConformance: async (who: string, auth: SchemeAuth): Promise<void> => {
      const result = await fuzz(opened.stack.url, {
        auth,
        preconditions: PRECONDITIONS,
        maxExamples: EXAMPLES,
        seed: SEED,
        excludePaths: EXCLUDED,
      });
      assert.equal(result.code, 0, `schemathesis as ${who} found disagreements:\n${result.output.slice(-20_000)}`);
    },
  };
}

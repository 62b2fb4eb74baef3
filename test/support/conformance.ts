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
import { fuzz, type FuzzRun, type Precondition, type SchemeAuth } from './schemathesis.js';
import { ENDS_THE_CREDENTIAL, ROUTE_ACCESS, expected, type CallerAccess } from './routeAccess.js';
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
  { operation: 'POST /collection/add', statuses: [400], why: 'variant must name one of the card’s own variants' },
  {
    operation: 'PATCH /collection/{entry_id}',
    statuses: [400],
    why: 'as adding; and grading_company or grade only on an entry graded as stored or made graded by the same change',
  },
  { operation: 'POST /decks/{deck_id}/cards', statuses: [400], why: 'the card must be of the deck’s game' },
  {
    operation: 'POST /me/avatar',
    statuses: [415, 422],
    why: 'the file must be a JPEG, PNG or WebP picture by its content',
  },
  ...['GET /clickhouse', 'POST /clickhouse'].map((operation) => ({
    operation,
    statuses: [400],
    why: 'the query must be one ClickHouse parses and can run for the caller (text the schema cannot tell from SQL)',
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

/** A caller schemathesis fuzzes as: its credentials in the document's schemes, and what it may use. */
export type FuzzCaller = { who: string; auth: SchemeAuth; access: CallerAccess; headers: Record<string, string> };

/** The four callers the document serves, signed in on a conformance stack (Unlimited accounts). */
export async function fuzzCallers(
  sessionOf: (username: string, admin?: boolean) => Promise<{ session: string; key: string }>,
): Promise<FuzzCaller[]> {
  const { key } = await sessionOf('fuzzkey');
  const { session: user } = await sessionOf('fuzzuser');
  const { session: admin } = await sessionOf('fuzzadmin', true);
  const cookie = (session: string) => ({ Cookie: `tcg_session=${session}` });
  return [
    { who: 'anonymous', auth: {}, access: { kind: 'anonymous' }, headers: {} },
    {
      who: 'an API key',
      auth: { apiKey: { bearer: key } },
      access: { kind: 'key', tier: 'unlimited', admin: false },
      headers: { Authorization: `Bearer ${key}` },
    },
    {
      who: 'a session',
      auth: { sessionCookie: { api_key: user } },
      access: { kind: 'session', tier: 'unlimited', admin: false },
      headers: cookie(user),
    },
    {
      who: 'an administrator',
      auth: { sessionCookie: { api_key: admin } },
      access: { kind: 'session', tier: 'unlimited', admin: true },
      headers: cookie(admin),
    },
  ];
}

/**
 * schemathesis as one caller, in two runs: every operation but those that end the caller's
 * credential, then those. Between them the credential must still be good: a run that lost it
 * midway (signed out, its key revoked) would have fuzzed the rest as nobody and passed. Operations
 * the caller may not use (the access table, test/support/routeAccess.ts) are fuzzed lightly, and a
 * route's coverage phase runs as the least caller it admits (see `standIns`).
 */
export async function fuzzAs(
  url: string,
  caller: FuzzCaller,
  opts: { maxExamples: number; seed: number; timeoutMs?: number },
): Promise<FuzzRun> {
  const refused = Object.entries(ROUTE_ACCESS)
    .filter(([, access]) => expected(access, caller.access) !== 'allowed')
    .map(([operation]) => operation);
  const enders = caller.access.kind === 'anonymous' ? [] : [...ENDS_THE_CREDENTIAL];
  // The coverage phase's boundary values are the same for every caller, and a route answers them
  // the same for callers its access treats alike: a route open to all is covered by the anonymous
  // caller's run, an administrator's route that a user at the same tier may use by the user's run.
  // The others fuzz those routes (the fuzzing phase), as every caller fuzzes every route.
  const standIns: CallerAccess[] = caller.access.kind === 'anonymous' ? [] : [{ kind: 'anonymous' }];
  if (caller.access.kind === 'session' && caller.access.admin) standIns.push({ ...caller.access, admin: false });
  const coveredElsewhere = Object.entries(ROUTE_ACCESS)
    .filter(([, access]) => standIns.some((other) => expected(access, other) === 'allowed'))
    .map(([operation]) => operation);
  const common = {
    auth: caller.auth,
    preconditions: PRECONDITIONS,
    excludePaths: EXCLUDED,
    refused,
    withoutCoverage: coveredElsewhere,
    ...opts,
  };
  const main = await fuzz(url, { ...common, skip: enders });
  if (main.code !== 0 || enders.length === 0) return main;
  const me = await fetch(`${url}/auth/me`, { headers: caller.headers });
  if (me.status !== 200)
    return {
      code: 1,
      output: `${main.output}\nthe credential of ${caller.who} no longer works after the run (GET /auth/me: ${me.status})`,
    };
  const last = await fuzz(url, { ...common, only: enders });
  return { code: last.code, output: `${main.output}\n${last.output}` };
}

/**
 * A stack started before the calling file's tests and stopped after them, with how to sign a
 * caller in and how to fuzz as one.
 */
export function conformanceStack() {
  let opened: Awaited<ReturnType<typeof openConformanceStack>>;
  let callers: Promise<FuzzCaller[]> | undefined;
  before(async () => {
    opened = await openConformanceStack();
  });
  after(async () => {
    await opened?.close();
  });
  return {
    expectConformance: async (who: string): Promise<void> => {
      callers ??= fuzzCallers(opened.sessionOf);
      const caller = (await callers).find((c) => c.who === who)!;
      const result = await fuzzAs(opened.stack.url, caller, { maxExamples: EXAMPLES, seed: SEED });
      assert.equal(result.code, 0, `schemathesis as ${who} found disagreements:\n${result.output.slice(-20_000)}`);
    },
  };
}

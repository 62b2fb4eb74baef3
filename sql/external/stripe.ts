// Payments: Stripe through its SDK. STRIPE_SECRET_KEY (with STRIPE_WEBHOOK_SECRET) selects a Stripe
// account; unset outside production, Stripe's own API mock server, stripe-mock (installed with
// `go install github.com/stripe/stripe-mock@v0.203.0` into the tool cache, built when the process
// opens its stores, beside the Temporal CLI, so the first checkout does not wait on a build), runs
// beside this process from the first payment on, with a webhook signing secret generated into the data
// directory; unset in production, payments are off and checkout says so.
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import Stripe from 'stripe';
import type { Config } from '../../schemas/config.js';
import { errorFields, type Logger } from '../runtime/log.js';
import { loadOrCreateSecret } from '../runtime/secrets.js';
import { goInstalled } from '../runtime/toolCache.js';

export const STRIPE_MOCK = 'github.com/stripe/stripe-mock@v0.203.0';
// stripe-mock accepts any well-formed test key (letters and digits after sk_test_).
const STRIPE_MOCK_KEY = 'sk_test_holoStripeMock';
const START_TIMEOUT_MS = 30_000;

export class PaymentsUnavailable extends Error {}

export type Payments = {
  kind: 'stripe' | 'stripe-mock' | 'off';
  /** The Stripe API client; stripe-mock starts on the first call. Throws PaymentsUnavailable when off. */
  client(): Promise<Stripe>;
  /** The verified event of a webhook request; throws Stripe's signature error for anything else. */
  verifyEvent(rawBody: Buffer, signature: string): Stripe.Event;
  close(): Promise<void>;
};

// Stripe's calls are few and matter: a bounded wait, and the SDK's own retries with idempotency keys.
const clientOptions = { timeout: 10_000, maxNetworkRetries: 2 } as const;

function apiLocation(url: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const u = new URL(url);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: u.port || (protocol === 'http' ? 80 : 443), protocol };
}

export async function openPayments(config: Config, log: Logger): Promise<Payments> {
  if (config.stripeSecretKey && config.stripeWebhookSecret) {
    const stripe = new Stripe(config.stripeSecretKey, {
      ...clientOptions,
      ...(config.stripeApiUrl ? apiLocation(config.stripeApiUrl) : {}),
    });
    const webhookSecret = config.stripeWebhookSecret;
    log.info('payments: stripe', {
      api: config.stripeApiUrl ?? 'api.stripe.com',
      mode: config.stripeSecretKey.includes('_live_') ? 'live' : 'test',
    });
    return {
      kind: 'stripe',
      client: async () => stripe,
      verifyEvent: (rawBody, signature) => stripe.webhooks.constructEvent(rawBody, signature, webhookSecret),
      close: async () => undefined,
    };
  }
  // Verifying a signature needs no API: an offline client does it.
  const verifier = new Stripe(STRIPE_MOCK_KEY);
  if (config.env === 'production') {
    log.warn('payments: off (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET); checkout answers 503 payments_unavailable');
    return {
      kind: 'off',
      client: async () => {
        throw new PaymentsUnavailable('card payments are not configured on this server');
      },
      verifyEvent: () => {
        throw new PaymentsUnavailable('card payments are not configured on this server');
      },
      close: async () => undefined,
    };
  }
  const webhookSecret = await embeddedWebhookSecret(config);
  // Built now, in the background (a no-op once in the cache); the first payment waits for this
  // build rather than starting one, and a failed build is tried again by that payment.
  let built: Promise<string> | null = null;
  const build = () => {
    built ??= goInstalled(STRIPE_MOCK, 'stripe-mock', log).catch((err: unknown) => {
      built = null;
      throw err;
    });
    return built;
  };
  build().catch((err: unknown) => log.warn('payments: stripe-mock not built at start; the first payment tries again', errorFields(err)));
  let mock: Promise<{ child: ChildProcess; stripe: Stripe }> | null = null;
  const start = () => {
    mock ??= startStripeMock(build, log).catch((err: unknown) => {
      mock = null; // the next payment tries again
      throw new PaymentsUnavailable(`stripe-mock did not start: ${(err as Error).message}`);
    });
    return mock;
  };
  log.info('payments: stripe-mock on this machine (started on the first payment; nothing is charged)');
  return {
    kind: 'stripe-mock',
    client: async () => (await start()).stripe,
    verifyEvent: (rawBody, signature) => verifier.webhooks.constructEvent(rawBody, signature, webhookSecret),
    close: async () => {
      const running = await mock?.catch(() => null);
      if (running && running.child.exitCode === null) running.child.kill('SIGTERM');
    },
  };
}

/** The embedded default's webhook signing secret (STRIPE_WEBHOOK_SECRET, else generated into the
 *  data directory), for tools and tests that sign events as Stripe would. */
export async function embeddedWebhookSecret(config: Config): Promise<string> {
  return (await loadOrCreateSecret(config.dataDir, 'stripe-webhook-secret', config.stripeWebhookSecret, 'whsec_')).value;
}

/**
 * stripe-mock on a port the system picks, read back from what it prints when it listens. Its HTTPS
 * listener gets a free port too: by default it takes 12112, and a second stripe-mock on the
 * machine (another test file, an `npm start`) printed its HTTP address and then exited on it.
 */
async function startStripeMock(build: () => Promise<string>, log: Logger): Promise<{ child: ChildProcess; stripe: Stripe }> {
  const bin = await build();
  const child = spawn(bin, ['-http-addr', '127.0.0.1:', '-https-addr', '127.0.0.1:'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // It never outlives the process that started it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const output: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const onLine = (line: string) => {
      output.push(line);
      const listening = /Listening for HTTP at address: .*:(\d+)$/.exec(line);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    };
    readline.createInterface({ input: child.stdout! }).on('line', onLine);
    readline.createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${output.slice(-5).join(' | ')}`));
    });
  });
  log.info('payments: stripe-mock listening', { address: `127.0.0.1:${port}` });
  return { child, stripe: new Stripe(STRIPE_MOCK_KEY, { ...clientOptions, host: '127.0.0.1', port, protocol: 'http' }) };
}

// Pushes to devices, sent from push_outbox by the outbox workflow (never inside a request). Web
// Push (browsers, installed web apps): the `web-push` library signs the request with our VAPID key
// (RFC 8292) and encrypts the payload for the subscription's keys (RFC 8291, aes128gcm); we POST it
// through the egress module, which keeps production pushes off internal addresses as it does
// webhooks. iOS and Android devices go to APNs and FCM (mobilePush.ts) when their credentials are
// configured; without them their pushes end as 'unconfigured' rather than pretending to be sent.
import crypto from 'node:crypto';
import webpush from 'web-push';
import type pg from 'pg';
import type { Logger } from '../../sql/runtime/log.js';
import { loadOrCreateSecret } from '../../sql/runtime/secrets.js';
import type { Config } from '../../schemas/config.js';
import { postJson } from './egress.js';
import { claimPushes, disableGoneDevice, endPush, nextPushDue, retryPush, type ClaimedPush } from '../../sql/notifications.js';

export type PushMessage = { title: string; body: string; data: Record<string, unknown> };

/** What one attempt came to: `gone` disables the device, `retry` tries again later. */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; why: string }
  | { kind: 'retry'; why: string }
  | { kind: 'failed'; why: string }
  | { kind: 'unconfigured'; why: string };

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** The VAPID key pair from its private key (32 bytes, base64url): the public key browsers subscribe with. */
export function vapidKeys(privateKey: string, subject: string): VapidKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey, subject };
}

const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a pushed message waits at the push service for an offline device. */
const TTL_SECONDS = 24 * 3600;

export type PushSender = { send(push: ClaimedPush): Promise<PushOutcome> };

type ProviderSend = (push: ClaimedPush) => Promise<PushOutcome>;

export function pushSender(opts: {
  vapid: VapidKeys;
  publicOnly: boolean;
  apns: ProviderSend | null;
  fcm: ProviderSend | null;
}): PushSender {
  return {
    async send(push) {
      if (push.platform === 'ios')
        return opts.apns ? opts.apns(push) : { kind: 'unconfigured', why: 'APNs credentials are not configured' };
      if (push.platform === 'android')
        return opts.fcm ? opts.fcm(push) : { kind: 'unconfigured', why: 'FCM credentials are not configured' };
      if (!push.p256dh || !push.auth_secret) return { kind: 'failed', why: 'the subscription has no keys' };
      const payload = JSON.stringify({ title: push.title, body: push.body, data: push.data });
      let request: webpush.RequestDetails;
      try {
        request = webpush.generateRequestDetails({ endpoint: push.token, keys: { p256dh: push.p256dh, auth: push.auth_secret } }, payload, {
          vapidDetails: opts.vapid,
          TTL: TTL_SECONDS,
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        return { kind: 'failed', why: `not encryptable for this subscription: ${(err as Error).message}` };
      }
      try {
        const { status } = await postJson(request.endpoint, request.headers as Record<string, string>, request.body as Buffer, {
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          publicOnly: opts.publicOnly,
        });
        if (status >= 200 && status < 300) return { kind: 'sent' };
        if (status === 404 || status === 410) return { kind: 'gone', why: `the push service answered ${status}` };
        if (status === 429 || status >= 500) return { kind: 'retry', why: `the push service answered ${status}` };
        return { kind: 'failed', why: `the push service answered ${status}` };
      } catch (err) {
        return { kind: 'retry', why: (err as Error).message };
      }
    },
  };
}

export type PushRetry = { maxAttempts: number; retrySeconds: number };
/** Pushes claimed per round, and sent at once. */
const BATCH = 100;
const CLAIM_SECONDS = 120;

export type PushRound = { sent: number; gone: number; retrying: number; failed: number; nextDueSeconds: number | null };

/**
 * One round of the push outbox: every due push is claimed, sent and marked on its own row. A
 * failure waits retrySeconds × 4^(attempts − 1) before the next try, and ends after maxAttempts.
 */
export async function sendDuePushes(pool: pg.Pool, sender: PushSender, retry: PushRetry, log: Logger): Promise<PushRound> {
  const round: PushRound = { sent: 0, gone: 0, retrying: 0, failed: 0, nextDueSeconds: null };
  for (
    let claimed = await claimPushes(pool, BATCH, CLAIM_SECONDS);
    claimed.length;
    claimed = await claimPushes(pool, BATCH, CLAIM_SECONDS)
  ) {
    await Promise.all(
      claimed.map(async (push) => {
        const outcome = await sender.send(push);
        switch (outcome.kind) {
          case 'sent':
            round.sent++;
            return endPush(pool, push.id, 'sent', null);
          case 'gone':
            round.gone++;
            log.info('push device gone, disabled', { device_id: push.device_id, platform: push.platform, why: outcome.why });
            return disableGoneDevice(pool, push.device_id, outcome.why);
          case 'retry':
            if (push.attempts >= retry.maxAttempts) round.failed++;
            else round.retrying++;
            return retryPush(pool, push.id, outcome.why, retry.retrySeconds * 4 ** (push.attempts - 1), retry.maxAttempts);
          default:
            round.failed++;
            return endPush(pool, push.id, outcome.kind, outcome.why);
        }
      }),
    );
  }
  round.nextDueSeconds = (await nextPushDue(pool))[0]?.seconds ?? null;
  return round;
}

/** The VAPID keys: HOLO_VAPID_PRIVATE_KEY, else one generated into the data directory on first use. */
export async function loadVapidKeys(config: Pick<Config, 'dataDir' | 'vapidPrivateKey' | 'vapidSubject'>): Promise<VapidKeys> {
  const { value } = await loadOrCreateSecret(config.dataDir, 'vapid-private-key', config.vapidPrivateKey);
  return vapidKeys(value, config.vapidSubject);
}

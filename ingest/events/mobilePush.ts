// Pushes to phones over the providers' HTTP APIs, when their credentials are configured.
// APNs: HTTP/2 POST /3/device/{token} with a provider token (an ES256 JWT from the team's .p8 key,
// renewed every 50 minutes; Apple refuses one older than an hour). FCM: HTTP v1 messages:send with
// an OAuth access token that a service account's RS256-signed assertion buys (RFC 7523), kept
// until a minute before it expires. Base URLs are configurable (sandbox, a test receiver).
import fs from 'node:fs/promises';
import http2 from 'node:http2';
import { SignJWT, importPKCS8 } from 'jose';
import type { ClaimedPush } from '../../sql/notifications.js';
import type { PushOutcome } from './push.js';

const ATTEMPT_TIMEOUT_MS = 10_000;
const APNS_TOKEN_SECONDS = 50 * 60;
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

export type ApnsConfig = { keyFile: string; keyId: string; teamId: string; topic: string; url: string };
export type FcmConfig = { serviceAccountFile: string; url: string };

type Send = (push: ClaimedPush) => Promise<PushOutcome>;

/** What a provider's status says: 2xx sent, `goneWhen` gone, 429 and 5xx again later, the rest failed. */
function outcomeOf(status: number, why: string, gone: boolean): PushOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (gone) return { kind: 'gone', why };
  if (status === 429 || status >= 500 || status === 401 || status === 403) return { kind: 'retry', why };
  return { kind: 'failed', why };
}

export async function apnsSender(config: ApnsConfig): Promise<Send> {
  const key = await importPKCS8(await fs.readFile(config.keyFile, 'utf8'), 'ES256');
  let token: { jwt: string; madeAt: number } | null = null;
  const providerToken = async (fresh: boolean) => {
    const now = Math.floor(Date.now() / 1000);
    if (fresh || !token || now - token.madeAt > APNS_TOKEN_SECONDS)
      token = {
        jwt: await new SignJWT({})
          .setProtectedHeader({ alg: 'ES256', kid: config.keyId })
          .setIssuer(config.teamId)
          .setIssuedAt(now)
          .sign(key),
        madeAt: now,
      };
    return token.jwt;
  };
  let session: http2.ClientHttp2Session | null = null;
  const connection = () => {
    if (!session || session.closed || session.destroyed) {
      session = http2.connect(config.url);
      session.on('error', () => (session = null));
      session.unref();
    }
    return session;
  };
  return async (push) => {
    const body = JSON.stringify({ aps: { alert: { title: push.title, body: push.body }, sound: 'default' }, data: push.data });
    try {
      const authorization = `bearer ${await providerToken(false)}`;
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = connection().request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(push.token)}`,
          authorization,
          'apns-topic': config.topic,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          'apns-expiration': String(Math.floor(Date.now() / 1000) + 24 * 3600),
          'content-type': 'application/json',
        });
        req.setTimeout(ATTEMPT_TIMEOUT_MS, () => req.close(http2.constants.NGHTTP2_CANCEL));
        let status = 0;
        let text = '';
        req.setEncoding('utf8');
        req.on('response', (headers) => (status = Number(headers[':status'])));
        req.on('data', (chunk: string) => (text += chunk));
        req.on('end', () => resolve({ status, text }));
        req.on('error', reject);
        req.end(body);
      });
      const reason = (JSON.parse(text || '{}') as { reason?: string }).reason ?? '';
      if (reason === 'ExpiredProviderToken') await providerToken(true);
      const gone = status === 410 || (status === 400 && (reason === 'BadDeviceToken' || reason === 'DeviceTokenNotForTopic'));
      return outcomeOf(status, `APNs answered ${status}${reason ? ` ${reason}` : ''}`, gone);
    } catch (err) {
      session?.destroy();
      session = null;
      return { kind: 'retry', why: `APNs: ${(err as Error).message}` };
    }
  };
}

type ServiceAccount = { project_id: string; client_email: string; private_key: string; token_uri?: string };

export async function fcmSender(config: FcmConfig): Promise<Send> {
  const account = JSON.parse(await fs.readFile(config.serviceAccountFile, 'utf8')) as ServiceAccount;
  const key = await importPKCS8(account.private_key, 'RS256');
  const tokenUri = account.token_uri ?? 'https://oauth2.googleapis.com/token';
  // The token held, and the one purchase in flight that concurrent sends share.
  let access: { token: string; until: number } | null = null;
  let buying: Promise<{ token: string; until: number }> | null = null;
  const buyToken = async () => {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(account.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const res = await fetch(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`the token endpoint answered ${res.status}`);
    const got = (await res.json()) as { access_token: string; expires_in: number };
    return { token: got.access_token, until: Date.now() + (got.expires_in - 60) * 1000 };
  };
  const accessToken = async () => {
    if (access && Date.now() < access.until) return access.token;
    buying ??= buyToken()
      .then((bought) => (access = bought))
      .finally(() => (buying = null));
    return (await buying).token;
  };
  return async (push) => {
    // FCM's data values are strings.
    const data = Object.fromEntries(Object.entries(push.data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    try {
      const res = await fetch(`${config.url}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: { token: push.token, notification: { title: push.title, body: push.body }, data } }),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status === 401) access = null; // bought again on the next send
      const unregistered = res.status === 404 || text.includes('UNREGISTERED');
      return outcomeOf(res.status, `FCM answered ${res.status}${unregistered ? ' UNREGISTERED' : ''}`, unregistered);
    } catch (err) {
      return { kind: 'retry', why: `FCM: ${(err as Error).message}` };
    }
  };
}

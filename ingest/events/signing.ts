// Webhook secrets and signatures. A delivery's X-Holo-Signature is the lowercase hex
// HMAC-SHA256 of the exact request body under the endpoint's secret (spec: Events, Webhook).
// Secrets must be recoverable to sign, so they are encrypted at rest (AES-256-GCM) rather than
// hashed; the key never leaves the server's configuration.
import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Holo-Signature';
export const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = () => `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;

export function signBody(secret: string, rawBody: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Constant-time check of a received signature (what a receiver does; our tests use it too). */
export function signatureMatches(secret: string, rawBody: string | Buffer, received: string | undefined): boolean {
  if (!received || !/^[0-9a-f]{64}$/.test(received)) return false;
  return crypto.timingSafeEqual(Buffer.from(signBody(secret, rawBody), 'hex'), Buffer.from(received, 'hex'));
}

export type SecretBox = { seal(secret: string): Buffer; open(sealed: Buffer): string };

export function secretBox(key: string): SecretBox {
  const aesKey = crypto.createHash('sha256').update(`holo webhook secrets v1\0${key}`).digest();
  return {
    seal(secret) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', aesKey, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', aesKey, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

// A push service on this machine, for tests: it hands out subscriptions (a browser's P-256 key pair
// and auth secret, an endpoint here), and for every push checks what a real push service and
// browser would: the VAPID token (RFC 8292: ES256 over `k`, audience the endpoint's origin,
// expiry within 24 h, a contact), then decrypts the body with the subscription's private key
// (RFC 8291 over RFC 8188 aes128gcm), written here from the RFCs, not with the sender's library.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedPush = {
  subscription: string;
  status: number;
  vapidKey: string | null;
  vapidProblem: string | null;
  payload: unknown;
  decryptProblem: string | null;
  ttl: string | undefined;
};

type Subscriber = { ecdh: crypto.ECDH; auth: Buffer; answers: number[] };

const b64u = (b: Buffer) => b.toString('base64url');

export async function startWebPushReceiver() {
  const subscribers = new Map<string, Subscriber>();
  const received: ReceivedPush[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (req.url ?? '').replace(/^\/push\//, '');
      const sub = subscribers.get(id);
      if (!sub || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const status = sub.answers.length > 1 ? sub.answers.shift()! : sub.answers[0]!;
      const vapid = checkVapid(req.headers.authorization, `${origin}`);
      let payload: unknown = null;
      let decryptProblem: string | null = null;
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
        payload = JSON.parse(decrypt(Buffer.concat(chunks), sub).toString('utf8'));
      } catch (err) {
        decryptProblem = (err as Error).message;
      }
      received.push({
        subscription: id,
        status,
        vapidKey: vapid.key,
        vapidProblem: vapid.problem,
        payload,
        decryptProblem,
        ttl: req.headers.ttl as string | undefined,
      });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    received,
    /** A new subscription whose pushes are answered with `answers` in turn (the last one from then on). */
    subscribe(name: string, answers: number[] = [201]) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const sub = { ecdh, auth: crypto.randomBytes(16), answers: [...answers] };
      subscribers.set(name, sub);
      return { endpoint: `${origin}/push/${name}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(sub.auth) } };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT signed with that key for this origin. */
function checkVapid(header: string | undefined, audience: string): { key: string | null; problem: string | null } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) return { key: null, problem: `no vapid authorization: ${header}` };
  const [, token, k] = m as unknown as [string, string, string];
  const [head, body, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString());
  if (header_.alg !== 'ES256') return { key: k, problem: `alg ${header_.alg}` };
  const valid = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return { key: k, problem: 'bad signature' };
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  const now = Date.now() / 1000;
  if (claims.aud !== audience) return { key: k, problem: `aud ${claims.aud}` };
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) return { key: k, problem: `exp ${claims.exp}` };
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) return { key: k, problem: `sub ${claims.sub}` };
  return { key: k, problem: null };
}

/** RFC 8291 key derivation and RFC 8188 aes128gcm, one record. */
function decrypt(body: Buffer, sub: Subscriber): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

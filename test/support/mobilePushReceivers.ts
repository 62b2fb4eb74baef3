// APNs and FCM on this machine, for tests: each makes its credentials (an APNs .p8 key, an FCM
// service account file) and checks what the real service would before it answers: APNs the ES256
// provider token (key id, team, age) and the topic over HTTP/2; FCM the RS256 assertion its
// token endpoint trades for an access token, then that token on messages:send. Tokens listed as
// gone are answered as the services answer an uninstalled app (410 Unregistered, 404 UNREGISTERED).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export type ProviderPush = { token: string; status: number; problem: string | null; title: string; body: string; data: unknown };

/** A JWT's header and claims when `key` signed it with `alg`; a reason otherwise. */
function verifiedJwt(token: string, key: crypto.KeyObject, alg: 'ES256' | 'RS256') {
  const [head, body, signature] = token.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(head, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  if (header.alg !== alg) return { header, claims, problem: `alg ${header.alg}` };
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  return { header, claims, problem: ok ? null : 'bad signature' };
}

const listening = async (server: http.Server | http2.Http2Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

export async function startApnsReceiver(opts: { gone: string[] }) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-apns-'));
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyFile = path.join(dir, 'AuthKey_TESTKEY123.p8');
  await fs.writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const identity = { keyId: 'TESTKEY123', teamId: 'TEAM123456', topic: 'example.holo.app' };
  const received: ProviderPush[] = [];
  const server = http2.createServer();
  // Clients keep their HTTP/2 session open: closing the server ends them.
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => {
      const token = decodeURIComponent(String(headers[':path']).replace(/^\/3\/device\//, ''));
      const jwt = verifiedJwt(String(headers.authorization ?? '').replace(/^bearer /, ''), publicKey, 'ES256');
      const age = Date.now() / 1000 - jwt.claims.iat;
      const problem =
        jwt.problem ??
        (jwt.header.kid !== identity.keyId ? `kid ${jwt.header.kid}` : null) ??
        (jwt.claims.iss !== identity.teamId ? `iss ${jwt.claims.iss}` : null) ??
        (!(age >= -60 && age < 3600) ? `iat ${jwt.claims.iat}` : null) ??
        (headers['apns-topic'] !== identity.topic ? `topic ${String(headers['apns-topic'])}` : null) ??
        (headers['apns-push-type'] !== 'alert' ? `push type ${String(headers['apns-push-type'])}` : null);
      const status = problem ? 403 : opts.gone.includes(token) ? 410 : 200;
      const payload = JSON.parse(text || '{}');
      received.push({ token, status, problem, title: payload.aps?.alert?.title, body: payload.aps?.alert?.body, data: payload.data });
      (stream as http2.ServerHttp2Stream).respond({ ':status': status, 'content-type': 'application/json' });
      stream.end(status === 200 ? '' : JSON.stringify({ reason: problem ? 'InvalidProviderToken' : 'Unregistered' }));
    });
  });
  const url = await listening(server);
  return {
    received,
    env: {
      HOLO_APNS_KEY_FILE: keyFile,
      HOLO_APNS_KEY_ID: identity.keyId,
      HOLO_APNS_TEAM_ID: identity.teamId,
      HOLO_APNS_TOPIC: identity.topic,
      HOLO_APNS_URL: url,
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.destroy();
      await closed;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function startFcmReceiver(opts: { gone: string[] }) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'holo-fcm-'));
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issued = new Set<string>();
  const received: ProviderPush[] = [];
  const tokenRequests: { problem: string | null }[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      if (req.url === '/token') {
        const form = new URLSearchParams(text);
        const jwt = verifiedJwt(form.get('assertion') ?? '..', publicKey, 'RS256');
        const problem =
          jwt.problem ??
          (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ? 'grant type' : null) ??
          (jwt.claims.iss !== account.client_email ? `iss ${jwt.claims.iss}` : null) ??
          (jwt.claims.aud !== account.token_uri ? `aud ${jwt.claims.aud}` : null) ??
          (jwt.claims.scope !== 'https://www.googleapis.com/auth/firebase.messaging' ? `scope ${jwt.claims.scope}` : null) ??
          (!(jwt.claims.exp > Date.now() / 1000) ? 'expired' : null);
        tokenRequests.push({ problem });
        if (problem) return res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant' }));
        const accessToken = crypto.randomBytes(16).toString('hex');
        issued.add(accessToken);
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: accessToken, expires_in: 3600 }));
      }
      if (req.url !== `/v1/projects/${account.project_id}/messages:send`) return res.writeHead(404).end();
      const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const message = JSON.parse(text || '{}').message ?? {};
      const problem = issued.has(bearer) ? null : 'unknown access token';
      const status = problem ? 401 : opts.gone.includes(message.token) ? 404 : 200;
      received.push({
        token: message.token,
        status,
        problem,
        title: message.notification?.title,
        body: message.notification?.body,
        data: message.data,
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        status === 404
          ? JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } })
          : JSON.stringify({ name: `projects/${account.project_id}/messages/${received.length}` }),
      );
    });
  });
  const url = await listening(server);
  const account = {
    type: 'service_account',
    project_id: 'holo-test',
    client_email: 'push@holo-test.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: `${url}/token`,
  };
  const accountFile = path.join(dir, 'service-account.json');
  await fs.writeFile(accountFile, JSON.stringify(account));
  return {
    received,
    tokenRequests,
    env: { HOLO_FCM_SERVICE_ACCOUNT_FILE: accountFile, HOLO_FCM_URL: url },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

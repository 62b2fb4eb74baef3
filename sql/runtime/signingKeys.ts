// The keyring every signed token uses (sql/runtime/signedTokens.ts): the current key signs, the
// previous keys only verify, so the secret can be rotated while the tokens signed before still
// work until they expire. A key's id (the `kid` header) is a digest of the key itself, so every
// instance and worker names a key alike without any coordination.
//
// Where the keys come from:
// - current: HOLO_SESSION_SECRET, else HOLO_DATA_DIR/session-secret (generated on first start);
// - previous: HOLO_SESSION_SECRET_PREVIOUS (comma-separated), plus the lines of
//   HOLO_DATA_DIR/session-secret.previous, `<retired at, ISO 8601> <key>` each, written by
//   `npm run secrets:rotate`. A line stops counting RETIRED_SECONDS after it was retired: by
//   then every token the key signed has expired (signedTokens refuses to sign for longer).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateSecret } from './secrets.js';

/** The longest lifetime of any signed token (the session cookie's 30 days), so the longest a retired key must verify. */
export const MAX_TOKEN_SECONDS = 30 * 86_400;

/** How long a retired key still verifies: the longest token, and an hour for clocks and the signer's slack. */
export const RETIRED_SECONDS = MAX_TOKEN_SECONDS + 3600;

export const CURRENT_FILE = 'session-secret';
export const PREVIOUS_FILE = 'session-secret.previous';
const MIN_LENGTH = 32;

export type SigningKey = { kid: string; secret: string };
export type Keyring = { current: SigningKey; previous: SigningKey[] };

/** A key with its id: 12 characters of a digest of the key (72 bits: no collision in any real keyring; says nothing of the key). */
export function signingKey(secret: string): SigningKey {
  if (secret.length < MIN_LENGTH) throw new Error(`a signing key has at least ${MIN_LENGTH} characters`);
  const kid = crypto.createHash('sha256').update(`holo signing key id\n${secret}`).digest('base64url').slice(0, 12);
  return { kid, secret };
}

/** The keyring of these secrets: duplicates and the current key among the previous ones are dropped. */
export function keyring(current: string, previous: readonly string[] = []): Keyring {
  const head = signingKey(current);
  const seen = new Set([head.kid]);
  const rest: SigningKey[] = [];
  for (const secret of previous) {
    const key = signingKey(secret);
    if (seen.has(key.kid)) continue;
    seen.add(key.kid);
    rest.push(key);
  }
  return { current: head, previous: rest };
}

type Retired = { retiredAt: Date; secret: string };

/** The retired keys in the data directory still within RETIRED_SECONDS of their retirement; malformed lines are skipped. */
async function readRetired(dataDir: string, now: Date): Promise<Retired[]> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dataDir, PREVIOUS_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const retired: Retired[] = [];
  for (const line of text.split('\n')) {
    const [at, secret, ...extra] = line.trim().split(/\s+/);
    const retiredAt = new Date(at ?? '');
    if (!secret || extra.length > 0 || Number.isNaN(retiredAt.getTime()) || secret.length < MIN_LENGTH) continue;
    if (retiredAt.getTime() + RETIRED_SECONDS * 1000 <= now.getTime()) continue;
    retired.push({ retiredAt, secret });
  }
  return retired;
}

export type KeySources = { dataDir: string; sessionSecret: string | undefined; sessionSecretPrevious: readonly string[] };

/** The keyring from the environment and the data directory (the current key generated on first start). */
export async function loadKeyring(sources: KeySources, now = new Date()): Promise<Keyring> {
  const { value } = await loadOrCreateSecret(sources.dataDir, CURRENT_FILE, sources.sessionSecret);
  const retired = await readRetired(sources.dataDir, now);
  // Newest first: the key retired last is the one most tokens still carry.
  retired.sort((a, b) => b.retiredAt.getTime() - a.retiredAt.getTime());
  return keyring(value, [...sources.sessionSecretPrevious, ...retired.map((r) => r.secret)]);
}

/** Writes a file whole or not at all (a reader never sees half a key), readable by this user only. */
async function replaceFile(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  await fs.rename(temp, file);
}

/**
 * Rotates the data directory's key: the current key joins session-secret.previous (verify only,
 * for RETIRED_SECONDS), a new random key becomes current, and retired keys past their time are
 * dropped. Processes read the keyring at start: restart the API instances and workers after.
 * The previous file is written first, so a crash between the two writes leaves a working keyring.
 */
export async function rotateKeyring(
  dataDir: string,
  now = new Date(),
): Promise<{ retiredKid: string; currentKid: string; previous: number }> {
  const current = signingKey((await loadOrCreateSecret(dataDir, CURRENT_FILE, undefined)).value);
  const kept = await readRetired(dataDir, now);
  const lines = [...kept, { retiredAt: now, secret: current.secret }].map((r) => `${r.retiredAt.toISOString()} ${r.secret}\n`);
  await replaceFile(path.join(dataDir, PREVIOUS_FILE), lines.join(''));
  const next = signingKey(crypto.randomBytes(32).toString('base64url'));
  await replaceFile(path.join(dataDir, CURRENT_FILE), `${next.secret}\n`);
  return { retiredKid: current.kid, currentKid: next.kid, previous: lines.length };
}

// Password hashing with scrypt (memory-hard, in Node's crypto: no native dependency). Stored as
// scrypt$N$r$p$salt$hash (base64url). Verification recomputes with the stored parameters, so the
// cost can be raised later without invalidating old hashes, and compares in constant time.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

// 2^15 × 8 × 128 bytes = 32 MiB per hash; about 70 ms on this machine.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const maxmem = (N: number, r: number) => 128 * N * r + 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: maxmem(PARAMS.N, PARAMS.r) });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Same work as a real check, so a missing account does not answer faster than a wrong password.
    await hashPassword(password);
    return false;
  }
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64url');
  const actual = await scrypt(password, Buffer.from(parts[4]!, 'base64url'), expected.length, { N, r, p, maxmem: maxmem(N, r) });
  return crypto.timingSafeEqual(actual, expected);
}

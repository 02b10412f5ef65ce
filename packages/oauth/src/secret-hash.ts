import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters (RFC 7914 §2). */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. Default 16,384 (2^14). */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * Default: N = 2^14, r = 8, p = 1 (16 MiB, Node's own scrypt default; tens of ms per hash): a stolen
 * table is slow to attack, and the secrets `generateSecret()` makes (256 random bits) cannot be
 * guessed anyway. Raise it for secrets people choose.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ N: 16_384, r: 8, p: 1 });

const KEY_LENGTH = 32;
const FORMAT = /^scrypt\$N=(\d{1,8}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{43})$/;

function derive(secret: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(secret.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * A slow, salted hash of a client secret (scrypt, RFC 7914, through `node:crypto`), as
 * `scrypt$N=…,r=…,p=…$<salt>$<hash>`: what a client store keeps instead of the secret.
 */
export async function hashSecret(secret: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, cost);
  return `scrypt$N=${cost.N},r=${cost.r},p=${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * Whether `secret` is the one `hash` was made from; compared in constant time. A malformed hash, or
 * cost parameters beyond N = 2^20, r = 32, p = 16, is false (never a throw).
 */
export async function verifySecret(secret: string, hash: string): Promise<boolean> {
  const match = FORMAT.exec(hash);
  if (match === null) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!(N >= 2 && N <= 1 << 20 && (N & (N - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return false;
  const expected = Buffer.from(match[5] as string, 'base64url');
  try {
    const key = await derive(secret, Buffer.from(match[4] as string, 'base64url'), { N, r, p });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/** A new client secret: 32 random bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

import { calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK, type JWTVerifyGetKey } from 'jose';

/** Asymmetric algorithms the token endpoint signs with (RFC 7518 §3.1). */
export type SigningAlgorithm = 'ES256' | 'ES384' | 'RS256' | 'PS256' | 'EdDSA';

interface SigningKey {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/** The keys access tokens are signed with, and the JWKS document that publishes their public halves. */
export interface SigningKeys {
  /** The key new tokens are signed with (the newest). */
  current(): Promise<{ readonly kid: string; readonly alg: SigningAlgorithm; readonly privateKey: CryptoKey }>;
  /** RFC 7517 §5 JWK Set of every key still trusted (current and rotated-out), public parts only. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** Verification key lookup by `kid`, over `jwks()`. */
  verificationKey(): Promise<JWTVerifyGetKey>;
  /** Make a new current key; the previous ones stay in the JWKS (tokens they signed still verify) until retired. Returns the new kid. */
  rotate(): Promise<string>;
  /** Stop trusting a rotated-out key (after the longest token lifetime has passed). The current key cannot be retired. */
  retire(kid: string): Promise<void>;
}

export interface SigningKeysOptions {
  /** Default `ES256`. */
  readonly algorithm?: SigningAlgorithm;
  /**
   * Private JWKs to sign with (the last is current), so every instance behind a load balancer signs
   * and verifies with the same keys. Default: one key generated in memory at start.
   */
  readonly keys?: readonly JWK[];
}

async function fromPrivateJwk(jwk: JWK, fallback: SigningAlgorithm): Promise<SigningKey> {
  const alg = (jwk.alg ?? fallback) as SigningAlgorithm;
  if (jwk.d === undefined) throw new TypeError('signing keys: each key must be a private JWK');
  const privateKey = (await importJWK(jwk, alg)) as CryptoKey;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = jwk;
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicPart));
  return { kid, alg, privateKey, publicJwk: { ...publicPart, kid, alg, use: 'sig' } };
}

async function generated(alg: SigningAlgorithm): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: false });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, alg, privateKey, publicJwk: { ...jwk, kid, alg, use: 'sig' } };
}

/**
 * Signing keys for access tokens, with rotation by `kid` (RFC 7515 §4.1.4): `rotate()` adds a new
 * current key, the old ones keep verifying until `retire()`. Private keys never leave the process.
 */
export function createSigningKeys(options: SigningKeysOptions = {}): SigningKeys {
  const algorithm = options.algorithm ?? 'ES256';
  let keys: Promise<SigningKey[]> = options.keys === undefined || options.keys.length === 0 ? generated(algorithm).then((key) => [key]) : Promise.all(options.keys.map((jwk) => fromPrivateJwk(jwk, algorithm)));
  let lookup: { keys: SigningKey[]; getKey: JWTVerifyGetKey } | undefined;
  const jwks = async (): Promise<{ keys: JWK[] }> => ({ keys: (await keys).map((key) => ({ ...key.publicJwk })) });
  return {
    current: async () => {
      const all = await keys;
      return all[all.length - 1] as SigningKey;
    },
    jwks,
    verificationKey: async () => {
      const all = await keys;
      if (lookup?.keys !== all) lookup = { keys: all, getKey: createLocalJWKSet(await jwks()) };
      return lookup.getKey;
    },
    rotate: async () => {
      const next = await generated(algorithm);
      const all = await keys;
      keys = Promise.resolve([...all, next]);
      return next.kid;
    },
    retire: async (kid) => {
      const all = await keys;
      if (all[all.length - 1]?.kid === kid) throw new TypeError('signing keys: the current key cannot be retired; rotate first');
      keys = Promise.resolve(all.filter((key) => key.kid !== kid));
    },
  };
}

import type { JWK } from 'jose';
import { CLIENT_ID, SCOPE_TOKEN, type ClientStore, type OAuthClient } from './oauth-client.js';
import { DEFAULT_SCRYPT_COST, generateSecret, hashSecret, type ScryptCost } from './secret-hash.js';

export interface CreateClientOptions {
  /** Default: a random id (`c-` and 16 hex digits). */
  readonly clientId?: string;
  readonly tenant?: string;
  /** Scopes it may ask for. Default `['scim', 'scim:read']`. */
  readonly scopes?: readonly string[];
  /** Scopes a token gets when the request names none. Default `['scim']` when allowed, else `scopes`. */
  readonly defaultScopes?: readonly string[];
  /** Public keys for `private_key_jwt`; with them and `secret: false` the client has no secret. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  /** `false`: no secret (a `private_key_jwt` client); a string: this secret (from configuration); default: a new random one. */
  readonly secret?: string | false;
  /** The grants it may use. Default `['client_credentials']`. */
  readonly grantTypes?: readonly string[];
  /** scrypt cost of the hash. Default `DEFAULT_SCRYPT_COST`. */
  readonly cost?: ScryptCost;
}

/** A created client, and its secret: shown once, never stored. */
export interface CreatedClient {
  readonly client: OAuthClient;
  readonly secret?: string;
}

const ASYMMETRIC = new Set(['RSA', 'EC', 'OKP']);

function checkedKeys(jwks: CreateClientOptions['jwks']): { keys: JWK[] } | undefined {
  if (jwks === undefined) return undefined;
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new TypeError('jwks must be { keys: [at least one JWK] }');
  return {
    keys: jwks.keys.map((key) => {
      if (typeof key.kty !== 'string' || !ASYMMETRIC.has(key.kty)) throw new TypeError('jwks: only public RSA, EC or OKP keys (never a shared secret)');
      if ('d' in key || 'p' in key || 'k' in key) throw new TypeError('jwks: give the public keys only, without private parts');
      return { ...key };
    }),
  };
}

/** Register a new client in `store` (a TypeError if the id is taken or the options are invalid). */
export async function createClient(store: ClientStore, options: CreateClientOptions = {}): Promise<CreatedClient> {
  const clientId = options.clientId ?? `c-${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  if (!CLIENT_ID.test(clientId)) throw new TypeError('clientId: 1-128 characters of A-Z a-z 0-9 - . _ ~ :');
  const scopes = [...(options.scopes ?? ['scim', 'scim:read'])];
  if (scopes.length === 0 || !scopes.every((scope) => SCOPE_TOKEN.test(scope))) throw new TypeError('scopes: at least one RFC 6749 §3.3 scope-token');
  const defaults = options.defaultScopes === undefined ? undefined : [...options.defaultScopes];
  if (defaults !== undefined && !defaults.every((scope) => scopes.includes(scope))) throw new TypeError('defaultScopes must be among scopes');
  if (options.tenant !== undefined && (options.tenant === '' || options.tenant.length > 256 || /[\u0000-\u001f\u007f]/.test(options.tenant))) {
    throw new TypeError('tenant: 1-256 characters without control characters');
  }
  const jwks = checkedKeys(options.jwks);
  if (options.secret === false && jwks === undefined) throw new TypeError('a client without a secret needs jwks (private_key_jwt)');
  if ((await store.get(clientId)) !== undefined) throw new TypeError(`client ${clientId} exists already`);
  const secret = options.secret === false ? undefined : (options.secret ?? generateSecret());
  const now = new Date().toISOString();
  const client: OAuthClient = {
    clientId,
    ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
    scopes,
    ...(defaults === undefined ? {} : { defaultScopes: defaults }),
    secretHashes: secret === undefined ? [] : [await hashSecret(secret, options.cost ?? DEFAULT_SCRYPT_COST)],
    ...(jwks === undefined ? {} : { jwks }),
    ...(options.grantTypes === undefined ? {} : { grantTypes: [...options.grantTypes] }),
    createdAt: now,
    updatedAt: now,
  };
  await store.save(client);
  return { client, ...(secret === undefined ? {} : { secret }) };
}

/**
 * Give a client a new secret. With `keepPrevious` (default true) the newest previous secret keeps
 * working beside it until the next rotation, so the identity provider can be updated without a gap.
 */
export async function rotateClientSecret(store: ClientStore, clientId: string, options: { keepPrevious?: boolean; cost?: ScryptCost } = {}): Promise<CreatedClient> {
  const client = await store.get(clientId);
  if (client === undefined) throw new TypeError(`no client ${clientId}`);
  const secret = generateSecret();
  const hash = await hashSecret(secret, options.cost ?? DEFAULT_SCRYPT_COST);
  const previous = options.keepPrevious === false ? [] : client.secretHashes.slice(0, 1);
  const rotated: OAuthClient = { ...client, secretHashes: [hash, ...previous], updatedAt: new Date().toISOString() };
  await store.save(rotated);
  return { client: rotated, secret };
}

/** Replace a client's `private_key_jwt` keys (key rotation on the client's side). */
export async function setClientKeys(store: ClientStore, clientId: string, jwks: { readonly keys: readonly JWK[] }): Promise<OAuthClient> {
  const client = await store.get(clientId);
  if (client === undefined) throw new TypeError(`no client ${clientId}`);
  const updated: OAuthClient = { ...client, jwks: checkedKeys(jwks) as { keys: JWK[] }, updatedAt: new Date().toISOString() };
  await store.save(updated);
  return updated;
}

/** Revoke a client: no new token, and (with a verifier given the store) the tokens it holds stop working. */
export async function revokeClient(store: ClientStore, clientId: string): Promise<OAuthClient> {
  const client = await store.get(clientId);
  if (client === undefined) throw new TypeError(`no client ${clientId}`);
  const revoked: OAuthClient = { ...client, revoked: true, updatedAt: new Date().toISOString() };
  await store.save(revoked);
  return revoked;
}

import type { JWK } from 'jose';

/** A registered OAuth client (RFC 6749 §2): what a `ClientStore` keeps. Never holds a secret in clear. */
export interface OAuthClient {
  /** RFC 6749 §2.2: the client identifier (1–128 characters of `A-Z a-z 0-9 - . _ ~ :`). */
  readonly clientId: string;
  /** The tenant its tokens act for; absent: the default tenant. */
  readonly tenant?: string;
  /** The scopes it may ask for (RFC 6749 §3.3). */
  readonly scopes: readonly string[];
  /** The scopes a token gets when the request names none. Default: `['scim']` when allowed, else `scopes`. */
  readonly defaultScopes?: readonly string[];
  /** scrypt hashes of its secrets (`hashSecret()`): the current one first; two during a rotation. */
  readonly secretHashes: readonly string[];
  /** Public keys for `private_key_jwt` (RFC 7523): a JWK Set of asymmetric keys. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  /** The grants it may use (RFC 7591 §2 `grant_types`). Default `['client_credentials']`; without it: `unauthorized_client`. */
  readonly grantTypes?: readonly string[];
  /** A revoked client gets no token, and the tokens it holds stop working. */
  readonly revoked?: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Where clients live: `createMemoryClientStore()`, `createPostgresClientStore()`, or your own. */
export interface ClientStore {
  get(clientId: string): Promise<OAuthClient | undefined>;
  /** Insert or replace the client with this `clientId`. */
  save(client: OAuthClient): Promise<void>;
  list(): Promise<OAuthClient[]>;
}

/** RFC 6749 Appendix A.1 allows any visible ASCII; this subset keeps ids safe in logs, keys and the Basic header. */
export const CLIENT_ID = /^[A-Za-z0-9\-._~:]{1,128}$/;

/** RFC 6749 §3.3 scope-token: visible ASCII except `"` and `\`. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;

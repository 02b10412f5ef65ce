import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { ClientStore } from './oauth-client.js';
import type { SigningKeys } from './signing-keys.js';

/** Who an access token stands for: the `principal` the SCIM hooks see. */
export interface OAuthPrincipal {
  /** The OAuth client (`client_id`, else `azp`/`appid`, else `sub`). */
  readonly clientId: string;
  readonly issuer: string;
  readonly subject?: string;
}

export interface VerifiedToken {
  readonly principal: OAuthPrincipal;
  readonly tenant?: string;
  readonly scopes: readonly string[];
  /** `exp`, epoch seconds. */
  readonly expiresAt: number;
}

/** Another issuer whose JWT access tokens the SCIM endpoint accepts (Entra ID, Okta, your own IdP). */
export interface TrustedIssuer {
  /** Its `iss`, exactly. */
  readonly issuer: string;
  /** The `aud` its tokens must carry for this service. */
  readonly audience: string | readonly string[];
  /** Its JWKS URL, fetched (and cached, refetched on an unknown `kid`) with `createRemoteJWKSet`. */
  readonly jwksUrl?: string;
  /** Or its keys, given. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  /** Accepted algorithms. Default: RS256, PS256, ES256, EdDSA. */
  readonly algorithms?: readonly string[];
  /** The tenant of a token. Default: its `tid` claim (Entra ID's tenant id), if a string. */
  readonly tenant?: (payload: JWTPayload) => string | undefined;
  /** Its scopes. Default: `scope` or `scp` split on spaces (or `scp` as an array), plus `roles` (Entra application permissions). */
  readonly scopes?: (payload: JWTPayload) => readonly string[];
  /** Longest wait for its JWKS, in ms. Default 3,000. */
  readonly jwksTimeoutMs?: number;
}

export interface TokenVerifierOptions {
  /** The token endpoint's `iss`; with `keys`, its tokens are accepted. */
  readonly issuer?: string;
  /** The `aud` the token endpoint puts in its tokens. */
  readonly audience?: string;
  /** The token endpoint's signing keys (the same object), for its own tokens. */
  readonly keys?: SigningKeys;
  /** When given, a token of a client revoked (or deleted) since is refused. */
  readonly clients?: ClientStore;
  /**
   * How long a client found active is taken as active without asking `clients` again, in ms: with a
   * PostgreSQL client store, 0 is one query per request. A revocation then takes up to this long to
   * stop the client's tokens. Default 0.
   */
  readonly revocationCacheMs?: number;
  readonly trusted?: readonly TrustedIssuer[];
  /** Clock skew tolerated on `exp`/`nbf`, in seconds. Default 5. */
  readonly clockToleranceSeconds?: number;
  /** Verified tokens remembered (until they expire) so a token used again costs a lookup. Default 10,000; 0 turns it off. */
  readonly cacheSize?: number;
}

export type TokenVerification = { readonly ok: true; readonly token: VerifiedToken } | { readonly ok: false; readonly reason: string };

export interface TokenVerifier {
  verify(token: string): Promise<TokenVerification>;
}

const REMOTE_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
const MAX_TOKEN_LENGTH = 16_384;

interface Issuer {
  readonly audience: string | string[];
  readonly algorithms: string[];
  readonly key: () => Promise<JWTVerifyGetKey>;
  readonly tenant: (payload: JWTPayload) => string | undefined;
  readonly scopes: (payload: JWTPayload) => readonly string[];
  readonly local: boolean;
}

/**
 * Verifies bearer access tokens: the token endpoint's own (signature by `kid` against its keys,
 * issuer, audience, expiry, and the client not revoked) and, configured, other issuers' JWTs
 * through their JWKS URL. Never throws: a refusal says why, for the `error_description`.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const issuers = new Map<string, Issuer>();
  if (options.keys !== undefined) {
    if (options.issuer === undefined || options.audience === undefined) throw new TypeError('createTokenVerifier: keys need issuer and audience');
    const keys = options.keys;
    issuers.set(options.issuer, {
      audience: options.audience,
      algorithms: ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'],
      key: () => keys.verificationKey(),
      tenant: (payload) => (typeof payload['tenant'] === 'string' ? payload['tenant'] : undefined),
      scopes: defaultScopes,
      local: true,
    });
  }
  for (const trusted of options.trusted ?? []) {
    if (issuers.has(trusted.issuer)) throw new TypeError(`createTokenVerifier: issuer ${trusted.issuer} given twice`);
    let key: JWTVerifyGetKey;
    if (trusted.jwksUrl !== undefined) key = createRemoteJWKSet(new URL(trusted.jwksUrl), { timeoutDuration: trusted.jwksTimeoutMs ?? 3_000, cooldownDuration: 30_000 });
    else if (trusted.jwks !== undefined) key = createLocalJWKSet({ keys: [...trusted.jwks.keys] });
    else throw new TypeError(`createTokenVerifier: issuer ${trusted.issuer} needs jwksUrl or jwks`);
    issuers.set(trusted.issuer, {
      audience: typeof trusted.audience === 'string' ? trusted.audience : [...trusted.audience],
      algorithms: [...(trusted.algorithms ?? REMOTE_ALGORITHMS)].filter((alg) => !/^(none|HS\d+)$/i.test(alg)),
      key: async () => key,
      tenant: trusted.tenant ?? ((payload) => (typeof payload['tid'] === 'string' ? payload['tid'] : undefined)),
      scopes: trusted.scopes ?? defaultScopes,
      local: false,
    });
  }
  if (issuers.size === 0) throw new TypeError('createTokenVerifier: give keys (the token endpoint\'s) or trusted issuers');
  const clockTolerance = options.clockToleranceSeconds ?? 5;
  const cacheSize = options.cacheSize ?? 10_000;
  const cache = new Map<string, VerifiedToken>();

  const revocationCacheMs = options.revocationCacheMs ?? 0;
  const active = new Map<string, number>();
  const checkClient = async (verified: VerifiedToken, local: boolean): Promise<TokenVerification> => {
    if (!local || options.clients === undefined) return { ok: true, token: verified };
    const { clientId } = verified.principal;
    const seen = active.get(clientId);
    if (seen !== undefined && Date.now() - seen < revocationCacheMs) return { ok: true, token: verified };
    const client = await options.clients.get(clientId);
    if (client === undefined || client.revoked === true) {
      active.delete(clientId);
      return { ok: false, reason: 'The client of this access token has been revoked' };
    }
    if (revocationCacheMs > 0) {
      if (active.size >= 10_000) active.clear();
      active.set(clientId, Date.now());
    }
    return { ok: true, token: verified };
  };

  return {
    async verify(token) {
      const now = Date.now() / 1000;
      const known = cache.get(token);
      if (known !== undefined) {
        if (known.expiresAt + clockTolerance > now) return checkClient(known, issuers.get(known.principal.issuer)?.local === true);
        cache.delete(token);
      }
      if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'The access token is too long' };
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        return { ok: false, reason: 'The access token is not a JWT' };
      }
      const issuer = typeof iss === 'string' ? issuers.get(iss) : undefined;
      if (issuer === undefined) return { ok: false, reason: 'The access token is from an issuer this service does not trust' };
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await issuer.key(), { issuer: iss as string, audience: issuer.audience, algorithms: issuer.algorithms, clockTolerance, requiredClaims: ['exp'] }));
      } catch (error) {
        return { ok: false, reason: reasonOf(error) };
      }
      const clientId = [payload['client_id'], payload['azp'], payload['appid'], payload.sub].find((value): value is string => typeof value === 'string' && value !== '');
      if (clientId === undefined) return { ok: false, reason: 'The access token names no client' };
      const tenant = issuer.tenant(payload);
      const verified: VerifiedToken = {
        principal: { clientId, issuer: iss as string, ...(payload.sub === undefined ? {} : { subject: payload.sub }) },
        ...(tenant === undefined ? {} : { tenant }),
        scopes: Object.freeze([...issuer.scopes(payload)]),
        expiresAt: payload.exp as number,
      };
      if (cacheSize > 0) {
        if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
        cache.set(token, verified);
      }
      return checkClient(verified, issuer.local);
    },
  };
}

function defaultScopes(payload: JWTPayload): readonly string[] {
  const scopes: string[] = [];
  for (const claim of [payload['scope'], payload['scp']]) {
    if (typeof claim === 'string') scopes.push(...claim.split(' ').filter((scope) => scope !== ''));
    else if (Array.isArray(claim)) scopes.push(...claim.filter((scope): scope is string => typeof scope === 'string'));
  }
  const roles = payload['roles'];
  if (Array.isArray(roles)) scopes.push(...roles.filter((role): role is string => typeof role === 'string'));
  return [...new Set(scopes)];
}

function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The access token expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `The access token's ${error.claim} claim is not valid for this service`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The access token is signed with an algorithm this service does not accept';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The access token is signed with a key this service does not know';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return 'The issuer\'s signing keys could not be fetched';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The access token signature is not valid';
  if (error instanceof errors.JOSEError) return 'The access token is not valid';
  return 'The issuer\'s signing keys could not be fetched';
}

import type { ScimRequest } from '@scimkit/core';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, errors } from 'jose';
import { CLIENT_ID, type ClientStore, type OAuthClient } from './oauth-client.js';
import type { ReplayCache } from './replay-cache.js';
import { generateSecret, hashSecret, verifySecret } from './secret-hash.js';

/** RFC 7523 §2.2: the client assertion type of `private_key_jwt`. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Asymmetric signature algorithms accepted on client assertions: never `none`, never HMAC (a public key is no shared secret). */
export const ASSERTION_ALGORITHMS: readonly string[] = Object.freeze(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

export type ClientAuthentication =
  | { readonly ok: true; readonly client: OAuthClient; readonly method: ClientAuthMethod }
  | { readonly ok: false; readonly code: 'invalid_request' | 'invalid_client'; readonly reason: string; readonly basic: boolean; readonly clientId?: string };

export interface ClientAuthenticationSettings {
  readonly clients: ClientStore;
  readonly replay: ReplayCache;
  readonly maxAssertionLifetimeSeconds: number;
  readonly clockToleranceSeconds: number;
}

const MAX_ASSERTION_LENGTH = 8_192;
const MAX_SECRET_LENGTH = 512;
const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/**
 * RFC 6749 §2.3 client authentication, exactly one method per request: HTTP Basic
 * (`client_secret_basic`, §2.3.1), the secret in the body (`client_secret_post`), or a signed JWT
 * (`private_key_jwt`, RFC 7523 §2.2 and §3). Unknown and revoked clients cost the same scrypt work
 * as a wrong secret, so timing tells nothing about which ids exist.
 */
export function clientAuthenticator(
  settings: ClientAuthenticationSettings,
): (request: ScimRequest, params: ReadonlyMap<string, string>, audiences: readonly string[]) => Promise<ClientAuthentication> {
  let decoy: Promise<string> | undefined;
  const wasteTime = async (secret: string): Promise<void> => {
    decoy ??= hashSecret(generateSecret());
    await verifySecret(secret, await decoy);
  };

  const bySecret = async (clientId: string, secret: string, basic: boolean): Promise<ClientAuthentication> => {
    const refuse = (reason: string): ClientAuthentication => ({ ok: false, code: 'invalid_client', reason, basic, ...(CLIENT_ID.test(clientId) ? { clientId } : {}) });
    if (!CLIENT_ID.test(clientId) || secret.length === 0 || secret.length > MAX_SECRET_LENGTH) return refuse('Client authentication failed');
    const client = await settings.clients.get(clientId);
    const hashes = client === undefined || client.revoked === true ? [] : client.secretHashes;
    let matched = false;
    for (const hash of hashes) if (!matched && (await verifySecret(secret, hash))) matched = true;
    if (hashes.length === 0) await wasteTime(secret);
    if (!matched || client === undefined) return refuse('Client authentication failed');
    return { ok: true, client, method: basic ? 'client_secret_basic' : 'client_secret_post' };
  };

  const byAssertion = async (assertion: string, namedId: string | undefined, audiences: readonly string[]): Promise<ClientAuthentication> => {
    const refuse = (reason: string, clientId?: string): ClientAuthentication => ({ ok: false, code: 'invalid_client', reason, basic: false, ...(clientId !== undefined && CLIENT_ID.test(clientId) ? { clientId } : {}) });
    if (assertion.length > MAX_ASSERTION_LENGTH) return refuse('The client assertion is too long');
    let alg: unknown;
    let iss: unknown;
    let sub: unknown;
    try {
      alg = decodeProtectedHeader(assertion).alg;
      ({ iss, sub } = decodeJwt(assertion));
    } catch {
      return refuse('The client assertion is not a well-formed signed JWT');
    }
    if (typeof alg !== 'string' || !ASSERTION_ALGORITHMS.includes(alg)) return refuse('The client assertion is signed with an algorithm this server does not accept (only asymmetric signatures)');
    if (typeof iss !== 'string' || !CLIENT_ID.test(iss) || sub !== iss) return refuse('The client assertion must have iss and sub both equal to the client id (RFC 7523 §3)');
    if (namedId !== undefined && namedId !== iss) return refuse('client_id does not match the client assertion', iss);
    const client = await settings.clients.get(iss);
    if (client === undefined || client.revoked === true || client.jwks === undefined) return refuse('Client authentication failed', iss);
    let payload;
    try {
      ({ payload } = await jwtVerify(assertion, createLocalJWKSet({ keys: [...client.jwks.keys] }), {
        algorithms: [...ASSERTION_ALGORITHMS],
        issuer: iss,
        subject: iss,
        audience: [...audiences],
        clockTolerance: settings.clockToleranceSeconds,
        requiredClaims: ['exp', 'jti'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refuse('The client assertion has expired', iss);
      if (error instanceof errors.JWTClaimValidationFailed) return refuse(`The client assertion's ${error.claim} claim is not valid here`, iss);
      return refuse('The client assertion signature does not verify with the keys registered for this client', iss);
    }
    const { exp, jti } = payload;
    const now = Math.floor(Date.now() / 1000);
    if (typeof exp !== 'number' || exp - now > settings.maxAssertionLifetimeSeconds) return refuse(`The client assertion must expire within ${settings.maxAssertionLifetimeSeconds} seconds`, iss);
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) return refuse('The client assertion needs a jti', iss);
    // RFC 7523 §3, item 7: a jti seen before (until its assertion expires) is a replay.
    if (!(await settings.replay.use(`${iss}\u0000${jti}`, exp + settings.clockToleranceSeconds))) return refuse('The client assertion has been used before', iss);
    return { ok: true, client, method: 'private_key_jwt' };
  };

  // `audiences`: the accepted `aud` of a client assertion (the issuer and the token endpoint's URLs).
  return async (request, params, audiences) => {
    const header = headerOf(request, 'authorization');
    const secret = params.get('client_secret');
    const assertion = params.get('client_assertion');
    const assertionType = params.get('client_assertion_type');
    const namedId = params.get('client_id');
    const methods = [header !== undefined, secret !== undefined, assertion !== undefined || assertionType !== undefined].filter(Boolean).length;
    // RFC 6749 §2.3: a client MUST NOT use more than one authentication method in each request.
    if (methods > 1) return { ok: false, code: 'invalid_request', reason: 'Use exactly one client authentication method', basic: header !== undefined };
    if (header !== undefined) {
      const encoded = BASIC.exec(header)?.[1];
      const decoded = encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
      const colon = decoded?.indexOf(':') ?? -1;
      if (decoded === undefined || colon < 0) return { ok: false, code: 'invalid_client', reason: 'The Authorization header is not HTTP Basic client credentials', basic: true };
      // RFC 6749 §2.3.1: the id and secret are form-urlencoded before Basic encoding.
      const [clientId, clientSecret] = [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
      if (clientId === undefined || clientSecret === undefined) return { ok: false, code: 'invalid_client', reason: 'The Basic credentials are not form-urlencoded', basic: true };
      if (namedId !== undefined && namedId !== clientId) return { ok: false, code: 'invalid_request', reason: 'client_id does not match the Basic credentials', basic: true };
      return bySecret(clientId, clientSecret, true);
    }
    if (secret !== undefined) {
      if (namedId === undefined) return { ok: false, code: 'invalid_request', reason: 'client_secret needs client_id', basic: false };
      return bySecret(namedId, secret, false);
    }
    if (assertion !== undefined || assertionType !== undefined) {
      if (assertionType !== JWT_BEARER_ASSERTION) return { ok: false, code: 'invalid_client', reason: `client_assertion_type must be ${JWT_BEARER_ASSERTION}`, basic: false };
      if (assertion === undefined || assertion === '') return { ok: false, code: 'invalid_request', reason: 'client_assertion is missing', basic: false };
      return byAssertion(assertion, namedId, audiences);
    }
    return { ok: false, code: 'invalid_client', reason: 'Client authentication is required (client_secret_basic, client_secret_post or private_key_jwt)', basic: false };
  };
}

function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** A request header by case-insensitive name, when given once as a string. */
export function headerOf(request: ScimRequest, name: string): string | undefined {
  const headers = request.headers ?? {};
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === 'string' ? value : undefined;
}

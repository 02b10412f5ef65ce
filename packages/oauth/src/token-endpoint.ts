import type { ScimRequest, ScimResponse } from '@scimkit/core';
import { SignJWT } from 'jose';
import { clientAuthenticator, headerOf } from './client-authentication.js';
import { parseForm } from './form-body.js';
import { SCOPE_TOKEN, type ClientStore, type OAuthClient } from './oauth-client.js';
import { writeRecord, type OAuthLogger } from './oauth-logger.js';
import { jsonAnswer, oauthError } from './oauth-response.js';
import { createMemoryReplayCache, type ReplayCache } from './replay-cache.js';
import type { SigningKeys } from './signing-keys.js';

export interface TokenEndpointOptions {
  /** `iss` of the access tokens (a URL of this service, e.g. `https://scim.example.com`). */
  readonly issuer: string;
  /** `aud` of the access tokens: what the SCIM endpoint's verifier expects (e.g. `https://scim.example.com/scim/v2`). */
  readonly audience: string;
  readonly clients: ClientStore;
  readonly keys: SigningKeys;
  /** Lifetime of an access token, in seconds. Default 600 (10 minutes); at most 86,400. */
  readonly tokenLifetimeSeconds?: number;
  /** Where the token endpoint answers, relative to where it is mounted. Default `/oauth/token`. */
  readonly tokenPath?: string;
  /** Where the JWKS document is served. Default `/.well-known/jwks.json`. */
  readonly jwksPath?: string;
  /** Public URL of the token endpoint, also accepted as the `aud` of client assertions (besides the issuer and the URL a request arrives at). */
  readonly tokenEndpointUrl?: string;
  /** Used `jti`s of client assertions. Default: in memory (one instance). */
  readonly replay?: ReplayCache;
  /** Largest token request body, in bytes; the adapters answer 413 beyond it. Default 16,384. */
  readonly maxBodyBytes?: number;
  /** Longest a client assertion may be valid (`exp` − now), in seconds. Default 300. */
  readonly maxAssertionLifetimeSeconds?: number;
  /** Clock skew tolerated on assertion times, in seconds. Default 30. */
  readonly clockToleranceSeconds?: number;
  /** Issued and refused token requests (never a secret, assertion or token). */
  readonly logger?: OAuthLogger;
}

/** The token endpoint, served like a SCIM server by any scimkit adapter: `createNodeHandler(endpoint)`. */
export interface TokenEndpoint {
  handle(request: ScimRequest): Promise<ScimResponse>;
  readonly config: { readonly limits: { readonly maxBodyBytes: number } };
  readonly tokenPath: string;
  readonly jwksPath: string;
  /** Sign an access token for `client` with `scopes` (what a successful token request returns). */
  issue(client: OAuthClient, scopes: readonly string[]): Promise<{ accessToken: string; expiresIn: number }>;
}

const FORM = /^application\/x-www-form-urlencoded\s*(?:;.*)?$/i;

/**
 * An OAuth 2.0 token endpoint for the client credentials grant (RFC 6749 §4.4) with client
 * authentication by secret (`client_secret_basic`, `client_secret_post`) or by private-key JWT
 * (RFC 7523), issuing short-lived JWT access tokens (RFC 9068 `at+jwt`) signed with `keys`, and the
 * JWKS document (RFC 7517) publishing their public keys. `handle()` never rejects: every refusal is
 * an RFC 6749 §5.2 error; a failing client store is 503 `temporarily_unavailable`.
 */
export function createTokenEndpoint(options: TokenEndpointOptions): TokenEndpoint {
  const tokenPath = options.tokenPath ?? '/oauth/token';
  const jwksPath = options.jwksPath ?? '/.well-known/jwks.json';
  const lifetime = options.tokenLifetimeSeconds ?? 600;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > 86_400) throw new TypeError('tokenLifetimeSeconds: an integer from 1 to 86400');
  if (typeof options.issuer !== 'string' || options.issuer === '' || typeof options.audience !== 'string' || options.audience === '') throw new TypeError('issuer and audience are required');
  const maxBodyBytes = options.maxBodyBytes ?? 16_384;
  const clockToleranceSeconds = options.clockToleranceSeconds ?? 30;
  const authenticate = clientAuthenticator({
    clients: options.clients,
    replay: options.replay ?? createMemoryReplayCache(),
    maxAssertionLifetimeSeconds: options.maxAssertionLifetimeSeconds ?? 300,
    clockToleranceSeconds,
  });
  const staticAudiences = [options.issuer, ...(options.tokenEndpointUrl === undefined ? [] : [options.tokenEndpointUrl])];
  const { logger } = options;

  const issue = async (client: OAuthClient, scopes: readonly string[]): Promise<{ accessToken: string; expiresIn: number }> => {
    const key = await options.keys.current();
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await new SignJWT({
      client_id: client.clientId,
      scope: scopes.join(' '),
      ...(client.tenant === undefined ? {} : { tenant: client.tenant }),
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setSubject(client.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetime)
      .setJti(globalThis.crypto.randomUUID())
      .sign(key.privateKey);
    return { accessToken, expiresIn: lifetime };
  };

  const token = async (request: ScimRequest): Promise<ScimResponse> => {
    const method = String(request.method).toUpperCase();
    if (method !== 'POST') return oauthError('invalid_request', 'The token endpoint takes POST (RFC 6749 §3.2)', 405, { Allow: 'POST' });
    const contentType = headerOf(request, 'content-type');
    const parsedBody = typeof request.body === 'object' && request.body !== null && !(request.body instanceof Uint8Array);
    if (!parsedBody && (contentType === undefined || !FORM.test(contentType))) return oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded (RFC 6749 §4.4.2)');
    const size = typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body instanceof Uint8Array ? request.body.byteLength : 0;
    if (size > maxBodyBytes) return oauthError('invalid_request', `The body is larger than ${maxBodyBytes} bytes`, 413);
    const form = parseForm(request.body);
    if (!form.ok) return oauthError('invalid_request', form.reason);
    const { params } = form;
    const grant = params.get('grant_type');
    if (grant === undefined || grant === '') return oauthError('invalid_request', 'grant_type is missing');
    if (grant !== 'client_credentials') return refused('unsupported_grant_type', 'Only the client_credentials grant is supported');
    const tokenUrl = typeof request.baseUrl === 'string' ? `${request.baseUrl.replace(/\/+$/, '')}${tokenPath}` : undefined;
    const authenticated = await authenticate(request, params, tokenUrl === undefined ? staticAudiences : [...staticAudiences, tokenUrl]);
    if (!authenticated.ok) {
      const clientId = authenticated.clientId;
      if (authenticated.code === 'invalid_request') return refused('invalid_request', authenticated.reason, clientId);
      // RFC 6749 §5.2: 401 with a challenge when the client tried the Authorization header, else 400.
      return authenticated.basic ? refused('invalid_client', authenticated.reason, clientId, 401, { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' }) : refused('invalid_client', authenticated.reason, clientId);
    }
    const { client, method: authMethod } = authenticated;
    if (!(client.grantTypes ?? ['client_credentials']).includes('client_credentials')) return refused('unauthorized_client', 'This client may not use the client_credentials grant', client.clientId);
    const scopes = grantedScopes(client, params.get('scope'));
    if (!scopes.ok) return refused('invalid_scope', scopes.reason, client.clientId);
    const issued = await issue(client, scopes.scopes);
    const scope = scopes.scopes.join(' ');
    writeRecord(logger, { level: 'info', message: 'access token issued', clientId: client.clientId, ...(client.tenant === undefined ? {} : { tenant: client.tenant }), method: authMethod, scope });
    return jsonAnswer(200, { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, scope });
  };

  const refused = (code: Parameters<typeof oauthError>[0], reason: string, clientId?: string, status?: number, headers?: Record<string, string>): ScimResponse => {
    writeRecord(logger, { level: 'warn', message: 'token request refused', code, reason, ...(clientId === undefined ? {} : { clientId }) });
    return oauthError(code, reason, status, headers);
  };

  return {
    tokenPath,
    jwksPath,
    config: { limits: { maxBodyBytes } },
    issue,
    async handle(request) {
      try {
        const path = typeof request?.path === 'string' ? request.path.replace(/\/+$/, '') || '/' : '';
        if (path === tokenPath) return await token(request);
        if (path === jwksPath) {
          const method = String(request.method).toUpperCase();
          if (method !== 'GET' && method !== 'HEAD') return jsonAnswer(405, { error: 'invalid_request', error_description: 'The JWKS document is read with GET' }, { Allow: 'GET, HEAD' });
          return { status: 200, headers: { 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=300' }, body: JSON.stringify(await options.keys.jwks()) };
        }
        return jsonAnswer(404, { error: 'not_found', error_description: 'No OAuth endpoint here' });
      } catch (error) {
        writeRecord(logger, { level: 'error', message: 'token endpoint failure (client store or signing keys)', error });
        return oauthError('temporarily_unavailable', 'The token endpoint cannot answer now; retry later', 503, { 'Retry-After': '5' });
      }
    },
  };
}

/** RFC 6749 §3.3: the scopes asked for, each allowed to the client; none asked: the client's default. */
function grantedScopes(client: OAuthClient, asked: string | undefined): { ok: true; scopes: string[] } | { ok: false; reason: string } {
  if (asked === undefined) {
    const defaults = client.defaultScopes ?? (client.scopes.includes('scim') ? ['scim'] : client.scopes);
    return { ok: true, scopes: [...defaults] };
  }
  const wanted = [...new Set(asked.split(' ').filter((scope) => scope !== ''))];
  if (wanted.length === 0) return { ok: false, reason: 'scope is empty' };
  const unknown = wanted.find((scope) => !SCOPE_TOKEN.test(scope) || !client.scopes.includes(scope));
  if (unknown !== undefined) return { ok: false, reason: SCOPE_TOKEN.test(unknown) ? `The scope ${unknown} is not allowed for this client` : 'A scope is not a valid scope-token' };
  return { ok: true, scopes: wanted };
}

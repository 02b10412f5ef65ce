/**
 * @scimkit/oauth: OAuth 2.0 for a scimkit server. A token endpoint for the client credentials grant
 * (client secrets as scrypt hashes, private-key JWTs per RFC 7523) issuing short-lived JWT access
 * tokens with a JWKS; verification for the SCIM endpoint (its own tokens and other issuers'); scopes
 * per operation; a per-tenant and per-client rate limit in memory or Redis.
 *
 * ```ts
 * const clients = createMemoryClientStore();
 * const keys = createSigningKeys();
 * const tokens = createTokenEndpoint({ issuer, audience, clients, keys });
 * const scim = createScimServer({
 *   ...config,
 *   ...oauthAuthentication({ verifier: createTokenVerifier({ issuer, audience, keys, clients }) }),
 *   ...scopePolicy(),
 *   ...rateLimit({ tenant: { perSecond: 50, burst: 100 } }),
 * });
 * ```
 *
 * @module @scimkit/oauth
 */
export { createTokenEndpoint } from './token-endpoint.js';
export type { TokenEndpoint, TokenEndpointOptions } from './token-endpoint.js';
export { createTokenVerifier } from './token-verifier.js';
export type { TokenVerifier, TokenVerifierOptions, TokenVerification, VerifiedToken, TrustedIssuer, OAuthPrincipal } from './token-verifier.js';
export { oauthAuthentication } from './oauth-authentication.js';
export type { OAuthAuthenticationOptions } from './oauth-authentication.js';
export { scopePolicy } from './scope-policy.js';
export type { ScopePolicyOptions, ScopeRules } from './scope-policy.js';
export { rateLimit, defaultRequestCost } from './rate-limit.js';
export type { RateLimitOptions, RateLimitRule } from './rate-limit.js';
export { createSigningKeys } from './signing-keys.js';
export type { SigningKeys, SigningKeysOptions, SigningAlgorithm } from './signing-keys.js';
export { createMemoryClientStore } from './memory-client-store.js';
export { createPostgresClientStore } from './postgres-client-store.js';
export type { PostgresClientStoreOptions } from './postgres-client-store.js';
export { createClient, rotateClientSecret, revokeClient, setClientKeys } from './manage-clients.js';
export type { CreateClientOptions, CreatedClient } from './manage-clients.js';
export { hashSecret, verifySecret, generateSecret, DEFAULT_SCRYPT_COST } from './secret-hash.js';
export type { ScryptCost } from './secret-hash.js';
export { createMemoryReplayCache, createRedisReplayCache } from './replay-cache.js';
export type { ReplayCache, RedisSetter } from './replay-cache.js';
export type { OAuthClient, ClientStore } from './oauth-client.js';
export type { OAuthLogger, OAuthLogRecord } from './oauth-logger.js';
export { JWT_BEARER_ASSERTION, ASSERTION_ALGORITHMS } from './client-authentication.js';

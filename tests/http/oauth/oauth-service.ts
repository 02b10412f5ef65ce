import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimLogRecord, type ScimStore } from '@scimkit/core';
import { createClient, createMemoryClientStore, createSigningKeys, createTokenEndpoint, createTokenVerifier, oauthAuthentication, rateLimit, scopePolicy, type OAuthLogRecord, type RateLimitRule } from '@scimkit/oauth';
import { exportJWK, generateKeyPair } from 'jose';

export const ISSUER = 'https://scim.example.com';
export const AUDIENCE = 'https://scim.example.com/scim/v2';
const TEST_COST = { N: 1024, r: 8, p: 1 };

/** A store that counts calls, to show that a refused request never reached it. */
function countingStore(inner: ScimStore, calls: { count: number }): ScimStore {
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'capabilities') return value;
      return (...args: unknown[]) => {
        calls.count++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The OAuth-protected service the HTTP suite runs over every adapter: Users and Groups with Bulk,
 * a token endpoint with a secret client (`entra`, tenant acme, every scope) and a private-key JWT
 * client (`okta-jwt`, tenant globex), a static token beside them, scopes, and optionally a rate limit.
 */
export async function createOAuthService(options: { rateLimit?: RateLimitRule } = {}) {
  const clients = createMemoryClientStore();
  const keys = createSigningKeys();
  const logs: (ScimLogRecord | OAuthLogRecord)[] = [];
  const logger = { log: (record: ScimLogRecord | OAuthLogRecord) => void logs.push(record) };
  const tokens = createTokenEndpoint({ issuer: ISSUER, audience: AUDIENCE, clients, keys, logger });
  const entra = await createClient(clients, { clientId: 'entra', tenant: 'acme', scopes: ['scim', 'scim:read', 'scim:write', 'scim:bulk'], cost: TEST_COST });
  const pair = await generateKeyPair('RS256');
  await createClient(clients, { clientId: 'okta-jwt', tenant: 'globex', secret: false, jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'okta-1', alg: 'RS256' }] } });
  const calls = { count: 0 };
  const scim = createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store: countingStore(createMemoryStore(), calls),
    bulk: {},
    logger,
    ...oauthAuthentication({
      verifier: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, keys, clients }),
      tokens: [{ token: 'static-okta-token', principal: 'okta-static', tenant: 'acme' }],
      tokenEndpointUrl: `${ISSUER}/oauth/token`,
    }),
    ...scopePolicy(),
    ...(options.rateLimit === undefined ? {} : rateLimit({ tenant: options.rateLimit })),
  });
  return { scim, tokens, clients, keys, logs, calls, secret: entra.secret as string, privateKey: pair.privateKey };
}

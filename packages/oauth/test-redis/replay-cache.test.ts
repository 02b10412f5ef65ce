import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createClient, createMemoryClientStore, createRedisReplayCache, createSigningKeys, createTokenEndpoint, JWT_BEARER_ASSERTION } from '../src/index.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** Runs only when SCIMKIT_REDIS_URL names a Redis server (.ci/run sets it when 127.0.0.1:6379 answers). */
const redisUrl = process.env['SCIMKIT_REDIS_URL'] as string;

describe('a jti replay cache shared through Redis', () => {
  it('an assertion used on one instance is refused on another', async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const keyPrefix = `scimkit-test-jti-${process.pid}-${Date.now()}:`;
      const clients = createMemoryClientStore();
      const pair = await generateKeyPair('ES256');
      await createClient(clients, { clientId: 'jwt', secret: false, jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'ES256' }] } });
      const keys = createSigningKeys();
      const [one, two] = [0, 1].map(() => createTokenEndpoint({ issuer: 'https://a.example', audience: 'scim', clients, keys, replay: createRedisReplayCache(redis, { keyPrefix }) }));
      const assertion = await new SignJWT({ jti: 'j-1' }).setProtectedHeader({ alg: 'ES256', kid: 'k' }).setIssuer('jwt').setSubject('jwt').setAudience('https://a.example').setExpirationTime('1m').sign(pair.privateKey);
      const request = { method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: assertion }).toString() };
      expect((await one?.handle(request))?.status).toBe(200);
      const replayed = await two?.handle(request);
      expect(replayed?.status).toBe(400);
      expect(JSON.parse(replayed?.body ?? '{}').error).toBe('invalid_client');
      expect(await redis.ttl(`${keyPrefix}jwt\u0000j-1`)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});

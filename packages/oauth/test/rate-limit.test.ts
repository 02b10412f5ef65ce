import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { AdmissionEvent } from '@scimkit/core';
import { defaultRequestCost, rateLimit } from '../src/index.js';

const event = (tenant: string, extra: Partial<AdmissionEvent> = {}): AdmissionEvent => ({ request: { method: 'GET', path: '/Users' }, authenticated: true, tenant, operation: 'list', ...extra });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function countAdmitted(admit: (event: AdmissionEvent) => Promise<unknown>, tenant: string, tries: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < tries; i++) if ((await admit(event(tenant))) === undefined) admitted++;
  return admitted;
}

describe('rateLimit in memory', () => {
  it('lets perSecond + burst through, then 429 with a Retry-After that, honoured, lets the next request through', async () => {
    const { admit } = rateLimit({ tenant: { perSecond: 5, burst: 3 } });
    expect(await countAdmitted(admit, 'acme', 8)).toBe(8);
    const refused = await admit(event('acme'));
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': expect.stringMatching(/^[1-9]\d*$/) } });
    expect((refused as { detail: string }).detail).toContain('at most 5 per second');
    // Another tenant has its own budget.
    expect(await admit(event('globex'))).toBeUndefined();
    await sleep(Number((refused as { headers: Record<string, string> }).headers['Retry-After']) * 1000);
    expect(await admit(event('acme'))).toBeUndefined();
  });

  it('limits per client too, and a costly request (Bulk, large filter, .search) uses more of the budget', async () => {
    const { admit } = rateLimit({ client: { perSecond: 10 } });
    const bulk = event('acme', { operation: 'bulk', principal: { clientId: 'entra' } });
    expect(defaultRequestCost(bulk)).toBe(10);
    expect(defaultRequestCost(event('acme', { operation: 'search' }))).toBe(2);
    expect(defaultRequestCost(event('acme', { request: { method: 'GET', path: '/Users', query: { filter: `userName eq "${'x'.repeat(300)}"` } } }))).toBe(3);
    expect(await admit(bulk)).toBeUndefined();
    expect(await admit({ ...bulk, operation: 'list' })).toMatchObject({ status: 429 });
    expect(await admit(event('acme', { principal: { clientId: 'okta' } }))).toBeUndefined();
    // A request with no client (unauthenticated by a scheme the limiter does not know) is not counted per client.
    expect(await admit(event('acme'))).toBeUndefined();
  });

  it('refuses an invalid configuration at start-up', () => {
    expect(() => rateLimit({})).toThrow(TypeError);
    expect(() => rateLimit({ tenant: { perSecond: 0 } })).toThrow(TypeError);
    expect(() => rateLimit({ tenant: { perSecond: 1, burst: -1 } })).toThrow(TypeError);
  });
});

describe('rateLimit with Redis unreachable', () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('answers by the fallback within the bounded wait: open, closed (503), memory', async () => {
    const port = await closedPort();
    const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 200, lazyConnect: false });
    redis.on('error', () => undefined);
    clients.push(redis);
    const errors: unknown[] = [];
    const open = rateLimit({ tenant: { perSecond: 1 }, redis, fallback: 'open', timeoutMs: 200, onStoreError: (error) => void errors.push(error) });
    const closed = rateLimit({ tenant: { perSecond: 1 }, redis, fallback: 'closed', timeoutMs: 200 });
    const memory = rateLimit({ tenant: { perSecond: 1 }, redis, fallback: 'memory', timeoutMs: 200 });
    const started = Date.now();
    expect(await countAdmitted(open.admit, 'acme', 3)).toBe(3);
    expect(await closed.admit(event('acme'))).toEqual({ status: 503, detail: expect.any(String), headers: { 'Retry-After': '1' } });
    expect(await countAdmitted(memory.admit, 'acme', 3)).toBe(1);
    expect(Date.now() - started).toBeLessThan(7 * 250 + 500);
    expect(errors.length).toBe(3);
  });

  it('a Redis that accepts connections but never answers is bounded by timeoutMs', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    const tcp = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: true, maxRetriesPerRequest: 0, connectTimeout: 10_000 });
    redis.on('error', () => undefined);
    clients.push(redis);
    const { admit } = rateLimit({ tenant: { perSecond: 1 }, redis, fallback: 'closed', timeoutMs: 150 });
    const started = Date.now();
    expect(await admit(event('acme'))).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
  });
});


describe('a Redis replay cache that does not answer', () => {
  it('refuses within its timeout, and the token endpoint answers 503 temporarily_unavailable', async () => {
    const { createRedisReplayCache } = await import('../src/index.js');
    const never = { set: () => new Promise<unknown>(() => undefined) };
    const cache = createRedisReplayCache(never, { timeoutMs: 100 });
    const started = Date.now();
    await expect(cache.use('k', Date.now() / 1000 + 60)).rejects.toThrow(/did not answer/);
    expect(Date.now() - started).toBeLessThan(1_000);
    const { createTokenEndpoint } = await import('../src/index.js');
    const { oauthFixture, assertion, form, JWT_BEARER_ASSERTION, ISSUER, AUDIENCE } = await import('./oauth-fixture.js');
    const { clients, keys, privateKey } = await oauthFixture();
    const endpoint = createTokenEndpoint({ issuer: ISSUER, audience: AUDIENCE, clients, keys, replay: cache });
    const response = await endpoint.handle(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: await assertion(privateKey, 'okta-jwt', {}, { aud: ISSUER }) }));
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body ?? '{}').error).toBe('temporarily_unavailable');
  });
});

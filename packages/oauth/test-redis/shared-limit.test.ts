import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { AdmissionEvent } from '@scimkit/core';
import { rateLimit } from '../src/index.js';

/** Runs only when SCIMKIT_REDIS_URL names a Redis server (.ci/run sets it when 127.0.0.1:6379 answers). */
const redisUrl = process.env['SCIMKIT_REDIS_URL'] as string;
const event = (tenant: string): AdmissionEvent => ({ request: { method: 'GET', path: '/Users' }, authenticated: true, tenant, operation: 'list' });

async function connected(): Promise<Redis> {
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', () => resolve());
    redis.once('error', reject);
  });
  return redis;
}

describe('rateLimit shared through Redis', () => {
  it('two instances sharing Redis enforce one limit together (stated tolerance: exact within one window)', async () => {
    const [a, b] = [await connected(), await connected()];
    try {
      const keyPrefix = `scimkit-test-${process.pid}-${Date.now()}`;
      const first = rateLimit({ tenant: { perSecond: 20 }, redis: a, keyPrefix, fallback: 'closed' });
      const second = rateLimit({ tenant: { perSecond: 20 }, redis: b, keyPrefix, fallback: 'closed' });
      const started = Date.now();
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).admit(event('acme'))));
      const elapsed = Date.now() - started;
      const admitted = outcomes.filter((outcome) => outcome === undefined).length;
      // The window opens at the first request and lasts one second. Within it the two instances
      // admit exactly 20 between them (a limit per instance would admit 40); only tries after
      // it closes could get more, which this many requests on loopback never take.
      expect(elapsed).toBeLessThan(1_000);
      expect(admitted).toBe(20);
      expect(outcomes.filter((outcome) => outcome !== undefined).every((outcome) => (outcome as { status: number }).status === 429)).toBe(true);
      // The other instance sees the same exhausted budget.
      expect(await second.admit(event('acme'))).toMatchObject({ status: 429 });
      expect(await first.admit(event('globex'))).toBeUndefined();
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});

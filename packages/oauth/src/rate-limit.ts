import type { AdmissionEvent, AdmissionResult } from '@scimkit/core';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A rate: `perSecond` requests (cost units) each second, plus `burst` more spread over `burstWindowSeconds`. */
export interface RateLimitRule {
  readonly perSecond: number;
  /** Extra units a busy key may use above `perSecond`, refilled over `burstWindowSeconds`. Default 0. */
  readonly burst?: number;
}

export interface RateLimitOptions {
  /** Per tenant (the default tenant is one key). */
  readonly tenant?: RateLimitRule;
  /** Per client (the principal: an OAuth client id, a static token's principal). */
  readonly client?: RateLimitRule;
  /** What a request costs. Default `defaultRequestCost`: 1; `.search` 2; a filter over 256 characters 3; Bulk 10. */
  readonly cost?: (event: AdmissionEvent) => number;
  /** A Redis client (`ioredis`, or `redis` with `redisPackage: 'redis'`) shared by every instance: one limit for all of them. Default: in memory, per instance. */
  readonly redis?: object;
  readonly redisPackage?: 'ioredis' | 'redis';
  /** Prefix of the Redis keys. Default `scimkit-rate`. */
  readonly keyPrefix?: string;
  /**
   * When Redis does not answer within `timeoutMs` (or is not connected): `open` lets the request
   * through, `closed` answers 503 with `Retry-After`, `memory` (default) limits in this instance's
   * memory until Redis is back.
   */
  readonly fallback?: 'open' | 'closed' | 'memory';
  /** Longest wait for Redis, in ms. Default 250. */
  readonly timeoutMs?: number;
  /** Seconds over which `burst` refills. Default 10. */
  readonly burstWindowSeconds?: number;
  /** The client key of a principal. Default: its `clientId` when it has one, else the principal if a string. */
  readonly clientOf?: (principal: unknown) => string | undefined;
  /** Called on every Redis failure (to log it); never changes the answer. */
  readonly onStoreError?: (error: unknown) => void;
}

/** 1 per request; `.search` 2 (its filter is in the body, unseen); a `filter` over 256 characters 3; a Bulk request 10. */
export function defaultRequestCost(event: AdmissionEvent): number {
  if (event.operation === 'bulk') return 10;
  if (event.operation === 'search' || event.operation === 'rootSearch') return 2;
  const filter = event.request.query?.['filter'];
  const length = typeof filter === 'string' ? filter.length : Array.isArray(filter) ? filter.join('').length : 0;
  return length > 256 ? 3 : 1;
}

interface Consumer {
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

class Timeout extends Error {}

function limiterFor(rule: RateLimitRule, name: string, options: RateLimitOptions, redis: boolean, burstWindow: number): Consumer {
  const prefix = `${options.keyPrefix ?? 'scimkit-rate'}:${name}`;
  const make = (points: number, duration: number, keyPrefix: string) =>
    redis
      ? new RateLimiterRedis({ storeClient: options.redis, points, duration, keyPrefix, rejectIfRedisNotReady: true, ...(options.redisPackage === 'redis' ? { useRedisPackage: true } : {}) })
      : new RateLimiterMemory({ points, duration, keyPrefix });
  const main = make(rule.perSecond, 1, prefix);
  const burst = rule.burst ?? 0;
  return burst > 0 ? new BurstyRateLimiter(main, make(burst, burstWindow, `${prefix}:burst`)) : main;
}

function checkRule(rule: RateLimitRule | undefined, name: string): void {
  if (rule === undefined) return;
  if (!Number.isInteger(rule.perSecond) || rule.perSecond < 1) throw new TypeError(`rateLimit: ${name}.perSecond must be a positive integer`);
  if (rule.burst !== undefined && (!Number.isInteger(rule.burst) || rule.burst < 0)) throw new TypeError(`rateLimit: ${name}.burst must be a non-negative integer`);
}

/**
 * A per-tenant and per-client rate limit for the core's `admit` hook (before the body is read or
 * any store is called), with `rate-limiter-flexible`: in memory, or in Redis shared by every
 * instance. Over the limit: 429 with `Retry-After` (the seconds until the next unit frees up) and a
 * SCIM error body. Redis slow or down: answered within `timeoutMs` by the `fallback`, never a hang.
 */
export function rateLimit(options: RateLimitOptions): { admit: (event: AdmissionEvent) => Promise<AdmissionResult> } {
  checkRule(options.tenant, 'tenant');
  checkRule(options.client, 'client');
  if (options.tenant === undefined && options.client === undefined) throw new TypeError('rateLimit: give tenant, client, or both');
  const timeoutMs = options.timeoutMs ?? 250;
  const fallback = options.fallback ?? 'memory';
  const burstWindow = options.burstWindowSeconds ?? 10;
  const cost = options.cost ?? defaultRequestCost;
  const clientOf = options.clientOf ?? defaultClientOf;
  const redis = options.redis !== undefined;
  const rules = (['tenant', 'client'] as const).flatMap((name) => {
    const rule = options[name];
    if (rule === undefined) return [];
    return [{ name, rule, shared: limiterFor(rule, name, options, redis, burstWindow), local: redis ? limiterFor(rule, name, options, false, burstWindow) : undefined, capacity: Math.max(rule.perSecond, rule.burst ?? 0) }];
  });

  const consume = async (limiter: Consumer, local: Consumer | undefined, key: string, points: number): Promise<RateLimiterRes | 'open' | 'closed' | undefined> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const bounded = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Timeout(`rate limiter store did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([limiter.consume(key, points), bounded]);
      return undefined;
    } catch (error) {
      if (error instanceof RateLimiterRes) return error;
      try {
        options.onStoreError?.(error);
      } catch {
        // A failing callback changes nothing.
      }
      if (local === undefined || fallback === 'open') return 'open';
      if (fallback === 'closed') return 'closed';
      try {
        await local.consume(key, points);
        return undefined;
      } catch (localError) {
        return localError instanceof RateLimiterRes ? localError : 'open';
      }
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    admit: async (event) => {
      const wanted = cost(event);
      for (const { name, shared, local, capacity, rule } of rules) {
        const key = name === 'tenant' ? `t:${event.tenant ?? ''}` : clientKey(clientOf(event.principal));
        if (key === undefined) continue;
        const points = Math.min(Math.max(1, Math.ceil(Number.isFinite(wanted) ? wanted : 1)), capacity);
        const outcome = await consume(shared, local, key, points);
        if (outcome === undefined || outcome === 'open') continue;
        if (outcome === 'closed') return { status: 503, detail: 'The rate limiter is unavailable; retry shortly', headers: { 'Retry-After': '1' } };
        const seconds = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
        return {
          status: 429,
          detail: `Too many requests for this ${name}: at most ${rule.perSecond} per second${rule.burst ? ` (bursts of ${rule.burst} more)` : ''}; retry after ${seconds} s`,
          headers: { 'Retry-After': String(seconds) },
        };
      }
      return undefined;
    },
  };
}

function clientKey(client: string | undefined): string | undefined {
  return client === undefined ? undefined : `c:${client}`;
}

function defaultClientOf(principal: unknown): string | undefined {
  if (typeof principal === 'string') return principal;
  const clientId = typeof principal === 'object' && principal !== null ? (principal as { clientId?: unknown }).clientId : undefined;
  return typeof clientId === 'string' ? clientId : undefined;
}

/** Remembers the `jti` of client assertions until they expire, so none is accepted twice (RFC 7523 §3, item 7). */
export interface ReplayCache {
  /** True the first time `key` is used before `expiresAt` (epoch seconds); false for a replay. */
  use(key: string, expiresAt: number): Promise<boolean>;
}

/**
 * A replay cache in memory, for one instance (several instances need a shared one: a `ReplayCache`
 * over Redis `SET key 1 NX EXAT expiresAt`). Holds at most `maxEntries`; when full, expired entries
 * are dropped first, and if none has expired the assertion is refused (fail closed).
 */
export function createMemoryReplayCache(maxEntries = 100_000): ReplayCache {
  const seen = new Map<string, number>();
  const sweep = (now: number): void => {
    for (const [key, expiresAt] of seen) if (expiresAt <= now) seen.delete(key);
  };
  return {
    use: async (key, expiresAt) => {
      const now = Date.now() / 1000;
      const known = seen.get(key);
      if (known !== undefined && known > now) return false;
      if (seen.size >= maxEntries) sweep(now);
      if (seen.size >= maxEntries) return false;
      seen.set(key, expiresAt);
      return true;
    },
  };
}

/** The part of a Redis client (`ioredis`) the shared replay cache uses. */
export interface RedisSetter {
  set(key: string, value: string, expiry: 'EXAT', at: number, mode: 'NX'): Promise<unknown>;
}

/**
 * A replay cache shared by every instance, in Redis: `SET <prefix><key> 1 EXAT <exp> NX`, so a `jti`
 * used on one instance is refused on all of them until its assertion expires. Redis slower than
 * `timeoutMs` (default 250) or failing rejects, which the token endpoint answers 503
 * `temporarily_unavailable` (fail closed: an assertion is never accepted unchecked).
 */
export function createRedisReplayCache(redis: RedisSetter, options: { keyPrefix?: string; timeoutMs?: number } = {}): ReplayCache {
  const prefix = options.keyPrefix ?? 'scimkit-jti:';
  const timeoutMs = options.timeoutMs ?? 250;
  return {
    use: async (key, expiresAt) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const answer = await Promise.race([
          redis.set(`${prefix}${key}`, '1', 'EXAT', Math.ceil(expiresAt), 'NX'),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the replay cache did not answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return answer === 'OK';
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

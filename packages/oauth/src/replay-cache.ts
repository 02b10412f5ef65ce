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

import { queryLimit, recordMatches, type ClientSummary, type LogPage, type LogQuery, type RateBucket } from './log-query.js';
import { DEFAULT_MAX_AGE_MS, emptyBuckets, type LogStore, type RetentionOptions } from './log-store.js';
import { RecordColumns } from './record-columns.js';
import type { RequestLogRecord } from './request-log-record.js';

export const DEFAULT_MEMORY_RECORDS = 5000;
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/** `createMemoryLogStore()` options. */
export interface MemoryLogStoreOptions extends RetentionOptions {
  /**
   * Most memory the records may hold, about (their strings' characters and a fixed 200 bytes each):
   * beyond it the oldest go, even under `maxRecords`, so large bodies cannot grow the ring without
   * bound. The newest record is always kept. Default 64 MiB.
   */
  readonly maxBytes?: number;
}

/**
 * The request log in memory: a ring of the newest `maxRecords` records (all tenants together) within
 * `maxBytes`, older than `maxAgeMs` ignored and dropped. Bounded whatever the traffic; gone on
 * restart. Records are kept column by column (`RecordColumns`), which the collector barely notices.
 */
export function createMemoryLogStore(options: MemoryLogStoreOptions = {}): LogStore {
  const capacity = Math.max(1, Math.floor(options.maxRecords ?? DEFAULT_MEMORY_RECORDS));
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_BYTES;
  const ring = new RecordColumns(capacity);
  let next = 0; // where the next record goes
  let size = 0;
  let bytes = 0;

  const oldestSlot = (): number => (next - size + capacity) % capacity;
  const dropOldest = (): void => {
    const at = oldestSlot();
    bytes -= ring.bytes(at);
    ring.clear(at);
    size--;
  };

  /** Slots newest first, within the age limit. */
  function* newest(): Generator<number> {
    const oldest = Date.now() - maxAgeMs;
    for (let i = 1; i <= size; i++) {
      const at = (next - i + capacity) % capacity;
      if (!ring.has(at) || ring.time(at) < oldest) return;
      yield at;
    }
  }

  const put = (record: RequestLogRecord): void => {
    if (size === capacity) dropOldest();
    ring.put(next, record);
    bytes += ring.bytes(next);
    next = (next + 1) % capacity;
    size++;
    while (bytes > maxBytes && size > 1) dropOldest();
  };

  return {
    async append(records) {
      for (const record of records) put(record);
    },
    async query(query: LogQuery): Promise<LogPage> {
      const limit = queryLimit(query);
      const records: RequestLogRecord[] = [];
      let skipping = query.after !== undefined && query.after !== '';
      for (const at of newest()) {
        if (skipping) {
          if (ring.id(at) === query.after) skipping = false;
          continue;
        }
        if (ring.tenant(at) !== query.tenant) continue;
        const record = ring.record(at);
        if (!recordMatches(record, query)) continue;
        if (records.length === limit) return { records, next: (records[limit - 1] as RequestLogRecord).id };
        records.push(record);
      }
      return { records };
    },
    async get(tenant, id) {
      for (const at of newest()) if (ring.id(at) === id && ring.tenant(at) === tenant) return ring.record(at);
      return undefined;
    },
    async clients(tenant) {
      const seen = new Map<string, { -readonly [K in keyof ClientSummary]: ClientSummary[K] }>();
      for (const at of newest()) {
        if (ring.tenant(at) !== tenant) continue;
        const client = ring.client(at);
        let summary = seen.get(client);
        if (summary === undefined) {
          summary = { client, requests: 0, errors: 0, lastCall: ring.time(at), lastStatus: ring.status(at) };
          const idp = ring.idp(at);
          const userAgent = ring.userAgent(at);
          if (idp !== undefined) summary.idp = idp;
          if (userAgent !== undefined) summary.userAgent = userAgent;
          seen.set(client, summary);
        }
        summary.requests++;
        if (ring.status(at) >= 400) summary.errors++;
      }
      return [...seen.values()];
    },
    async rates(tenant, from, to, bucketMs): Promise<readonly RateBucket[]> {
      const buckets = emptyBuckets(from, to, bucketMs);
      for (const at of newest()) {
        const time = ring.time(at);
        if (time < from) break;
        if (ring.tenant(at) !== tenant || time >= to) continue;
        const bucket = buckets[Math.floor((time - from) / bucketMs)];
        if (bucket === undefined) continue;
        bucket.requests++;
        if (ring.status(at) >= 400) bucket.errors++;
      }
      return buckets;
    },
    async tenants() {
      const tenants = new Set<string>();
      for (const at of newest()) tenants.add(ring.tenant(at));
      return [...tenants].sort();
    },
    async prune() {
      const oldest = Date.now() - maxAgeMs;
      while (size > 0) {
        const at = oldestSlot();
        if (ring.has(at) && ring.time(at) >= oldest) break;
        dropOldest();
      }
    },
    async clear(tenant) {
      const kept: RequestLogRecord[] = [];
      for (const at of newest()) if (ring.tenant(at) !== tenant) kept.push(ring.record(at));
      while (size > 0) dropOldest();
      next = 0;
      bytes = 0;
      for (const record of kept.reverse()) put(record);
    },
  };
}

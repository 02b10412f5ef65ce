import { queryLimit, recordMatches, type ClientSummary, type LogPage, type LogQuery, type RateBucket } from './log-query.js';
import { DEFAULT_MAX_AGE_MS, emptyBuckets, type LogStore, type RetentionOptions } from './log-store.js';
import type { RequestLogRecord } from './request-log-record.js';

export const DEFAULT_MEMORY_RECORDS = 5000;

/**
 * The request log in memory: a ring of the newest `maxRecords` records (all tenants together),
 * older than `maxAgeMs` ignored and dropped. Bounded whatever the traffic; gone on restart.
 */
export function createMemoryLogStore(options: RetentionOptions = {}): LogStore {
  const capacity = Math.max(1, Math.floor(options.maxRecords ?? DEFAULT_MEMORY_RECORDS));
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const ring: (RequestLogRecord | undefined)[] = new Array<RequestLogRecord | undefined>(capacity);
  let next = 0; // where the next record goes
  let size = 0;

  /** Records newest first, within the age limit. */
  function* newest(): Generator<RequestLogRecord> {
    const oldest = Date.now() - maxAgeMs;
    for (let i = 1; i <= size; i++) {
      const record = ring[(next - i + capacity) % capacity];
      if (record === undefined || record.time < oldest) return;
      yield record;
    }
  }

  return {
    async append(records) {
      for (const record of records) {
        ring[next] = record;
        next = (next + 1) % capacity;
        if (size < capacity) size++;
      }
    },
    async query(query: LogQuery): Promise<LogPage> {
      const limit = queryLimit(query);
      const records: RequestLogRecord[] = [];
      let skipping = query.after !== undefined && query.after !== '';
      for (const record of newest()) {
        if (skipping) {
          if (record.id === query.after) skipping = false;
          continue;
        }
        if (!recordMatches(record, query)) continue;
        if (records.length === limit) return { records, next: (records[limit - 1] as RequestLogRecord).id };
        records.push(record);
      }
      return { records };
    },
    async get(tenant, id) {
      for (const record of newest()) if (record.id === id && record.tenant === tenant) return record;
      return undefined;
    },
    async clients(tenant) {
      const seen = new Map<string, { -readonly [K in keyof ClientSummary]: ClientSummary[K] }>();
      for (const record of newest()) {
        if (record.tenant !== tenant) continue;
        let summary = seen.get(record.client);
        if (summary === undefined) {
          summary = { client: record.client, requests: 0, errors: 0, lastCall: record.time, lastStatus: record.status };
          if (record.idp !== undefined) summary.idp = record.idp;
          if (record.userAgent !== undefined) summary.userAgent = record.userAgent;
          seen.set(record.client, summary);
        }
        summary.requests++;
        if (record.status >= 400) summary.errors++;
      }
      return [...seen.values()];
    },
    async rates(tenant, from, to, bucketMs): Promise<readonly RateBucket[]> {
      const buckets = emptyBuckets(from, to, bucketMs);
      for (const record of newest()) {
        if (record.time < from) break;
        if (record.tenant !== tenant || record.time >= to) continue;
        const bucket = buckets[Math.floor((record.time - from) / bucketMs)];
        if (bucket === undefined) continue;
        bucket.requests++;
        if (record.status >= 400) bucket.errors++;
      }
      return buckets;
    },
    async tenants() {
      const tenants = new Set<string>();
      for (const record of newest()) tenants.add(record.tenant);
      return [...tenants].sort();
    },
    async prune() {
      const oldest = Date.now() - maxAgeMs;
      for (let i = size; i >= 1; i--) {
        const at = (next - i + capacity) % capacity;
        const record = ring[at];
        if (record !== undefined && record.time >= oldest) break;
        ring[at] = undefined;
        size--;
      }
    },
    async clear(tenant) {
      const kept = [...newest()].filter((record) => record.tenant !== tenant).reverse();
      ring.fill(undefined);
      next = 0;
      size = 0;
      for (const record of kept) {
        ring[next] = record;
        next = (next + 1) % capacity;
        size++;
      }
    },
  };
}

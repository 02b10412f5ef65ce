import { randomBytes } from 'node:crypto';
import type { RecordedRequest, RequestRecorder } from '@scimkit/core';
import { buildRecord, createRecordCaches, type RecordLimits } from './build-record.js';
import type { ClientSummary, LogPage, LogQuery, RateBucket } from './log-query.js';
import type { LogStore } from './log-store.js';
import { createMemoryLogStore } from './memory-log-store.js';
import type { RedactionOptions } from './redaction-options.js';
import { compileRedaction } from './redactor.js';
import type { RequestLogRecord } from './request-log-record.js';

/** `createRequestLog()` options. Everything has a safe default. */
export interface RequestLogOptions extends RecordLimits {
  /** `false` turns recording off (`record` does nothing); the query API still answers. Default true. */
  readonly enabled?: boolean;
  /** Where records are kept. Default: a ring of 5,000 records in memory (`createMemoryLogStore()`). */
  readonly store?: LogStore;
  readonly redaction?: RedactionOptions;
  /** Most requests waiting to be recorded; more are dropped and counted (`stats.dropped`). Default 10,000. */
  readonly maxPending?: number;
  /** The client name of a request, instead of the principal's name or the credential's fingerprint. Must not return a secret. */
  readonly clientName?: (recorded: RecordedRequest) => string | undefined;
  /** Called when recording or storing fails (the request is never affected). Default: `console.error` once a minute at most. */
  readonly onError?: (error: unknown) => void;
  /** How often the store is pruned (age, count), in milliseconds, off the request path. Default 60,000. */
  readonly pruneIntervalMs?: number;
}

/** Counters of the log itself. */
export interface RequestLogStats {
  readonly recorded: number;
  readonly dropped: number;
  readonly failed: number;
}

/**
 * The request log: give it to `createScimServer({ requestLog })` and to the console. `record` only
 * queues the request (synchronous, bounded); redaction and storage run after the response, in
 * batches, so a slow or failing store never slows or fails a request.
 */
export interface RequestLog extends RequestRecorder {
  query(query: LogQuery): Promise<LogPage>;
  get(tenant: string, id: string): Promise<RequestLogRecord | undefined>;
  clients(tenant: string): Promise<readonly ClientSummary[]>;
  rates(tenant: string, from: number, to: number, bucketMs: number): Promise<readonly RateBucket[]>;
  tenants(): Promise<readonly string[]>;
  clear(tenant: string): Promise<void>;
  /** Record everything queued now and wait until it is stored. */
  flush(): Promise<void>;
  /** Flush, stop pruning, and close the store. */
  close(): Promise<void>;
  readonly stats: RequestLogStats;
  readonly enabled: boolean;
  /** The redaction options, which the console also applies to the users and groups it shows. */
  readonly redaction: RedactionOptions;
}

export const DEFAULT_MAX_PENDING = 10_000;

export function createRequestLog(options: RequestLogOptions = {}): RequestLog {
  const store = options.store ?? createMemoryLogStore();
  const enabled = options.enabled ?? true;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const redaction = compileRedaction(options.redaction);
  const caches = createRecordCaches();
  const stats = { recorded: 0, dropped: 0, failed: 0 };
  let pending: RecordedRequest[] = [];
  // Record ids: unique per log instance (random prefix) and in order within it.
  const instance = `${randomBytes(6).toString('base64url')}-`;
  let sequence = 0;
  let scheduled = false;
  let writing: Promise<void> = Promise.resolve();
  /** Appends started and not yet settled. */
  let appending = 0;
  let lastReport = 0;
  const report =
    options.onError ??
    ((error: unknown) => {
      if (Date.now() - lastReport < 60_000) return;
      lastReport = Date.now();
      console.error('scimkit request log: recording failed (requests are not affected)', error);
    });
  const fail = (error: unknown): void => {
    stats.failed++;
    try {
      report(error);
    } catch {
      // The error reporter itself failed: nothing more to do.
    }
  };

  // Store a batch (made once: a function made per batch is one more object per batch).
  const append = async (records: RequestLogRecord[]): Promise<void> => {
    try {
      await store.append(records);
      stats.recorded += records.length;
    } catch (error) {
      fail(error);
    }
    appending--;
  };

  const drain = (): Promise<void> => {
    scheduled = false;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    const records: RequestLogRecord[] = [];
    for (const recorded of batch) {
      try {
        records.push(withKnownUserName(buildRecord(recorded, `${instance}${(sequence++).toString(36).padStart(8, '0')}`, redaction, options, options.clientName, caches)));
      } catch (error) {
        fail(error);
      }
    }
    // In order: after the appends still running, at once when none is (one promise less per batch).
    writing = appending++ === 0 ? append(records) : writing.then(() => append(records));
    return writing;
  };

  // The userName of resources seen lately, so that a refused request on a resource id can be found
  // by its userName too (only what the personal-data policy lets the records keep).
  const userNames = new Map<string, string>();
  const withKnownUserName = (record: RequestLogRecord): RequestLogRecord => {
    if (record.userName !== undefined && record.userName !== '***') {
      // Each id once: a PATCH or PUT changes the resource its path names.
      let last = record.resourceId;
      if (last !== undefined) remember(`${record.tenant}\u0000${last}`, record.userName);
      for (const change of record.changes) if (change.id !== last) remember(`${record.tenant}\u0000${(last = change.id)}`, record.userName);
      return record;
    }
    if (record.userName !== undefined || record.resourceId === undefined) return record;
    const known = userNames.get(`${record.tenant}\u0000${record.resourceId}`);
    // Set on the record buildRecord just made (no one else holds it): a copy by spread would be an
    // object in dictionary mode, slow to read when the store copies it.
    if (known !== undefined) (record as { userName?: string }).userName = known;
    return record;
  };
  const remember = (key: string, userName: string): void => {
    // Unchanged: left where it is (a delete and a set per write would make the map compact itself
    // over and over); the bound holds the same.
    if (userNames.get(key) === userName) return;
    userNames.delete(key);
    userNames.set(key, userName);
    if (userNames.size > 10_000) userNames.delete(userNames.keys().next().value as string);
  };

  let pruning = false;
  const prune = (): void => {
    if (pruning) return;
    pruning = true;
    store
      .prune()
      .catch(fail)
      .finally(() => {
        pruning = false;
      });
  };
  const timer = enabled ? setInterval(prune, options.pruneIntervalMs ?? 60_000) : undefined;
  timer?.unref?.();

  return {
    enabled,
    stats,
    redaction: options.redaction ?? {},
    record(recorded) {
      if (!enabled) return;
      if (pending.length >= maxPending) {
        stats.dropped++;
        return;
      }
      pending.push(recorded);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    query: (query) => store.query(query),
    get: (tenant, id) => store.get(tenant, id),
    clients: (tenant) => store.clients(tenant),
    rates: (tenant, from, to, bucketMs) => store.rates(tenant, from, to, bucketMs),
    tenants: () => store.tenants(),
    clear: (tenant) => store.clear(tenant),
    flush: () => drain(),
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await drain();
      await store.close?.();
    },
  };
}

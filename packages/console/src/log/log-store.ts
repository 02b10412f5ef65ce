import type { ClientSummary, LogPage, LogQuery, RateBucket } from './log-query.js';
import type { RequestLogRecord } from './request-log-record.js';

/**
 * Where the request log keeps its records: a bounded ring in memory (`createMemoryLogStore`) or a
 * PostgreSQL table (`createPostgresLogStore`). Records arrive already redacted.
 */
export interface LogStore {
  append(records: readonly RequestLogRecord[]): Promise<void>;
  query(query: LogQuery): Promise<LogPage>;
  get(tenant: string, id: string): Promise<RequestLogRecord | undefined>;
  /** Each client of the tenant with its last call, most recent first. */
  clients(tenant: string): Promise<readonly ClientSummary[]>;
  /** Requests and errors per bucket of `bucketMs` from `from` to `to`. */
  rates(tenant: string, from: number, to: number, bucketMs: number): Promise<readonly RateBucket[]>;
  /** The tenants that have records (`''` is the default tenant). */
  tenants(): Promise<readonly string[]>;
  /** Drop what retention no longer keeps (age, count). */
  prune(): Promise<void>;
  /** Drop every record of a tenant. */
  clear(tenant: string): Promise<void>;
  close?(): Promise<void>;
}

/** How long and how much the log keeps. */
export interface RetentionOptions {
  /** Oldest record kept, in milliseconds. Default 7 days. */
  readonly maxAgeMs?: number;
  /** Most records kept (per tenant in PostgreSQL; in all in memory). Default 5,000 in memory, 100,000 per tenant in PostgreSQL. */
  readonly maxRecords?: number;
}

export const DEFAULT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** Buckets from `from` to `to` filled from records' times and statuses. */
export function emptyBuckets(from: number, to: number, bucketMs: number): { start: number; requests: number; errors: number }[] {
  const buckets: { start: number; requests: number; errors: number }[] = [];
  const count = Math.max(1, Math.min(500, Math.ceil((to - from) / bucketMs)));
  for (let i = 0; i < count; i++) buckets.push({ start: from + i * bucketMs, requests: 0, errors: 0 });
  return buckets;
}

import type { RequestLogRecord } from './request-log-record.js';

/** A search of the request log; every field narrows it. Newest first. */
export interface LogQuery {
  /** The tenant (`''` for the default tenant). */
  readonly tenant: string;
  /** Records at or after this time (ms since the epoch). */
  readonly from?: number;
  /** Records before this time (ms since the epoch). */
  readonly to?: number;
  /** An exact status (`404`), or a class: `'2xx'`, `'4xx'`, `'5xx'`, `'error'` (400 and above). */
  readonly status?: number | StatusClass;
  /** Requests that named or changed this resource id. */
  readonly resourceId?: string;
  /** Requests about this userName (case-insensitive substring). */
  readonly userName?: string;
  /** Requests of this client (exact). */
  readonly client?: string;
  /** Most records to return (default 50, at most 500). */
  readonly limit?: number;
  /** Continue after this record id (the `next` of the previous page). */
  readonly after?: string;
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'error';

/** A page of records, newest first, and where the next page starts. */
export interface LogPage {
  readonly records: readonly RequestLogRecord[];
  readonly next?: string;
}

/** A client of a tenant: how many requests it made and when it last called. */
export interface ClientSummary {
  readonly client: string;
  readonly idp?: string;
  readonly userAgent?: string;
  readonly requests: number;
  readonly errors: number;
  readonly lastCall: number;
  readonly lastStatus: number;
}

/** Requests and errors in one time bucket, for the rate chart. */
export interface RateBucket {
  /** Start of the bucket (ms since the epoch). */
  readonly start: number;
  readonly requests: number;
  readonly errors: number;
}

export const DEFAULT_QUERY_LIMIT = 50;
export const MAX_QUERY_LIMIT = 500;

export function queryLimit(query: LogQuery): number {
  const limit = query.limit ?? DEFAULT_QUERY_LIMIT;
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_QUERY_LIMIT) : DEFAULT_QUERY_LIMIT;
}

/** Whether a status is in the asked class. */
export function statusMatches(status: number, wanted: number | StatusClass): boolean {
  if (typeof wanted === 'number') return status === wanted;
  if (wanted === 'error') return status >= 400;
  const hundreds = Number(wanted[0]);
  return Math.floor(status / 100) === hundreds;
}

/** Whether a record matches every field of the query but paging (in memory). */
export function recordMatches(record: RequestLogRecord, query: LogQuery): boolean {
  if (record.tenant !== query.tenant) return false;
  if (query.from !== undefined && record.time < query.from) return false;
  if (query.to !== undefined && record.time >= query.to) return false;
  if (query.status !== undefined && !statusMatches(record.status, query.status)) return false;
  if (query.client !== undefined && query.client !== '' && record.client !== query.client) return false;
  if (query.resourceId !== undefined && query.resourceId !== '' && record.resourceId !== query.resourceId && !record.changes.some((c) => c.id === query.resourceId)) return false;
  if (query.userName !== undefined && query.userName !== '') {
    if (record.userName === undefined || !record.userName.toLowerCase().includes(query.userName.toLowerCase())) return false;
  }
  return true;
}

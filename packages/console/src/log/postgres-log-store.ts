import { queryLimit, type ClientSummary, type LogPage, type LogQuery, type RateBucket } from './log-query.js';
import { DEFAULT_MAX_AGE_MS, emptyBuckets, type LogStore, type RetentionOptions } from './log-store.js';
import type { RequestLogRecord } from './request-log-record.js';

/**
 * What the PostgreSQL log store needs of a connection: one parameterised statement at a time. The
 * `SqlClient` of `@scimkit/postgres` (`fromPgPool(pool)`, `fromPGlite(db)`) is one.
 */
export interface LogSqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

export interface PostgresLogStoreOptions extends RetentionOptions {
  readonly client: LogSqlClient;
  /** Table name (created with `CREATE TABLE IF NOT EXISTS` on first use). Default `scimkit_request_log`. */
  readonly table?: string;
}

export const DEFAULT_POSTGRES_RECORDS = 100_000;
const ROWS_PER_INSERT = 500;

/**
 * The request log in a PostgreSQL table of its own (not part of the store's migrations): one row per
 * request, the record as `jsonb` beside the columns it is searched by. Retention: rows older than
 * `maxAgeMs`, and beyond the newest `maxRecords` of a tenant, are deleted by `prune()`, which the
 * request log runs on a timer, never on a request.
 */
export function createPostgresLogStore(options: PostgresLogStoreOptions): LogStore {
  const { client } = options;
  const table = options.table ?? 'scimkit_request_log';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(table)) throw new TypeError(`createPostgresLogStore: table "${table}" must be a lower-case SQL identifier`);
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const maxRecords = Math.max(1, Math.floor(options.maxRecords ?? DEFAULT_POSTGRES_RECORDS));
  let ready: Promise<void> | undefined;
  const ensure = (): Promise<void> => {
    ready ??= (async () => {
      await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
        id text PRIMARY KEY,
        tenant text NOT NULL,
        time_ms bigint NOT NULL,
        status integer NOT NULL,
        client text NOT NULL,
        user_name text,
        resource_ids text[] NOT NULL,
        record jsonb NOT NULL
      )`);
      await client.query(`CREATE INDEX IF NOT EXISTS ${table}_tenant_time ON ${table} (tenant, time_ms DESC, id DESC)`);
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  return {
    async append(records) {
      if (records.length === 0) return;
      await ensure();
      for (let start = 0; start < records.length; start += ROWS_PER_INSERT) {
        const chunk = records.slice(start, start + ROWS_PER_INSERT);
        const params: unknown[] = [];
        const rows = chunk.map((record) => {
          const ids = [...new Set([record.resourceId, ...record.changes.map((c) => c.id)].filter((id): id is string => id !== undefined))];
          params.push(record.id, record.tenant, record.time, record.status, record.client, record.userName?.toLowerCase() ?? null, ids, JSON.stringify(record));
          const n = params.length - 8;
          return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}::jsonb)`;
        });
        await client.query(`INSERT INTO ${table} (id, tenant, time_ms, status, client, user_name, resource_ids, record) VALUES ${rows.join(', ')} ON CONFLICT (id) DO NOTHING`, params);
      }
    },
    async query(query: LogQuery): Promise<LogPage> {
      await ensure();
      const limit = queryLimit(query);
      const params: unknown[] = [query.tenant, Date.now() - maxAgeMs];
      const where = ['tenant = $1', 'time_ms >= $2'];
      const add = (clause: (n: string) => string, value: unknown): void => {
        params.push(value);
        where.push(clause(`$${params.length}`));
      };
      if (query.from !== undefined) add((n) => `time_ms >= ${n}`, query.from);
      if (query.to !== undefined) add((n) => `time_ms < ${n}`, query.to);
      if (typeof query.status === 'number') add((n) => `status = ${n}`, query.status);
      else if (query.status === 'error') where.push('status >= 400');
      else if (query.status !== undefined) add((n) => `status / 100 = ${n}`, Number(query.status[0]));
      if (query.client !== undefined && query.client !== '') add((n) => `client = ${n}`, query.client);
      if (query.userName !== undefined && query.userName !== '') add((n) => `user_name LIKE '%' || ${n} || '%' ESCAPE '\\'`, query.userName.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`));
      if (query.resourceId !== undefined && query.resourceId !== '') add((n) => `${n} = ANY(resource_ids)`, query.resourceId);
      const after = parseCursor(query.after);
      if (after !== undefined) {
        params.push(after.time, after.id);
        where.push(`(time_ms, id) < ($${params.length - 1}, $${params.length})`);
      }
      const { rows } = await client.query<{ record: unknown }>(`SELECT record FROM ${table} WHERE ${where.join(' AND ')} ORDER BY time_ms DESC, id DESC LIMIT ${limit + 1}`, params);
      const records = rows.map((row) => recordOf(row.record));
      if (records.length <= limit) return { records };
      const page = records.slice(0, limit);
      const last = page[limit - 1] as RequestLogRecord;
      return { records: page, next: `${last.time}_${last.id}` };
    },
    async get(tenant, id) {
      await ensure();
      const { rows } = await client.query<{ record: unknown }>(`SELECT record FROM ${table} WHERE tenant = $1 AND id = $2 AND time_ms >= $3`, [tenant, id, Date.now() - maxAgeMs]);
      return rows[0] === undefined ? undefined : recordOf(rows[0].record);
    },
    async clients(tenant): Promise<readonly ClientSummary[]> {
      await ensure();
      const { rows } = await client.query<{ client: string; requests: string | number; errors: string | number; last_call: string | number; last: unknown }>(
        `SELECT client, count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors, max(time_ms) AS last_call,
                (array_agg(jsonb_build_object('idp', record->'idp', 'userAgent', record->'userAgent', 'status', status) ORDER BY time_ms DESC))[1] AS last
           FROM ${table} WHERE tenant = $1 AND time_ms >= $2 GROUP BY client ORDER BY max(time_ms) DESC LIMIT 200`,
        [tenant, Date.now() - maxAgeMs],
      );
      return rows.map((row) => {
        const last = (typeof row.last === 'string' ? JSON.parse(row.last) : row.last) as { idp?: string | null; userAgent?: string | null; status: number };
        return {
          client: row.client,
          requests: Number(row.requests),
          errors: Number(row.errors),
          lastCall: Number(row.last_call),
          lastStatus: Number(last.status),
          ...(typeof last.idp === 'string' ? { idp: last.idp } : {}),
          ...(typeof last.userAgent === 'string' ? { userAgent: last.userAgent } : {}),
        };
      });
    },
    async rates(tenant, from, to, bucketMs): Promise<readonly RateBucket[]> {
      await ensure();
      const buckets = emptyBuckets(from, to, bucketMs);
      const { rows } = await client.query<{ bucket: string | number; requests: string | number; errors: string | number }>(
        `SELECT (time_ms - $2) / $4 AS bucket, count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors
           FROM ${table} WHERE tenant = $1 AND time_ms >= $2 AND time_ms < $3 GROUP BY 1`,
        [tenant, Math.floor(from), Math.floor(to), Math.max(1, Math.floor(bucketMs))],
      );
      for (const row of rows) {
        const bucket = buckets[Number(row.bucket)];
        if (bucket === undefined) continue;
        bucket.requests = Number(row.requests);
        bucket.errors = Number(row.errors);
      }
      return buckets;
    },
    async tenants() {
      await ensure();
      const { rows } = await client.query<{ tenant: string }>(`SELECT DISTINCT tenant FROM ${table} ORDER BY tenant`);
      return rows.map((row) => row.tenant);
    },
    async prune() {
      await ensure();
      await client.query(`DELETE FROM ${table} WHERE time_ms < $1`, [Date.now() - maxAgeMs]);
      await client.query(
        `DELETE FROM ${table} t USING (
           SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY tenant ORDER BY time_ms DESC, id DESC) AS n FROM ${table}) ranked WHERE n > $1
         ) old WHERE t.id = old.id`,
        [maxRecords],
      );
    },
    async clear(tenant) {
      await ensure();
      await client.query(`DELETE FROM ${table} WHERE tenant = $1`, [tenant]);
    },
  };
}

function recordOf(value: unknown): RequestLogRecord {
  return (typeof value === 'string' ? JSON.parse(value) : value) as RequestLogRecord;
}

function parseCursor(after: string | undefined): { time: number; id: string } | undefined {
  if (after === undefined || after === '') return undefined;
  const cut = after.indexOf('_');
  const time = Number(after.slice(0, cut));
  if (cut <= 0 || !Number.isFinite(time)) return undefined;
  return { time, id: after.slice(cut + 1) };
}

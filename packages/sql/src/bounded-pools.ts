import { StoreUnavailableError } from '@scimkit/core';
import { statementNamer } from './named-statements.js';

/** The bounds of a pooled connection (docs/stores/own-tables.md, "Timeouts and failures"). */
export interface ConnectionBounds {
  /** How long a store call waits for a free pooled connection (or a new one to connect). Default 5,000 ms. */
  readonly acquireTimeoutMs?: number;
  /** How long one statement may run, lock waits included. Default 10,000 ms. */
  readonly statementTimeoutMs?: number;
  /** Store calls allowed to wait for a connection at once; one more is answered 503 at once. Default 100. */
  readonly maxWaiting?: number;
  /**
   * Every error a pool or a connection reports outside a statement (the server closed an idle
   * connection, a failover). The connection is discarded either way; the default ignores it.
   */
  readonly onConnectionError?: (error: Error) => void;
  /**
   * How many of the statements that repeat a pool prepares, each parsed (and planned) once per
   * connection: PostgreSQL named statements; MySQL/MariaDB server-side prepared statements
   * (mysql2's `execute`, which keeps them per connection). Default 100; 0 sends every statement as
   * text (a pooler in transaction mode that does not keep prepared statements).
   */
  readonly preparedStatements?: number;
}

/** The bounds with their defaults applied. */
export interface ResolvedBounds {
  readonly acquireTimeoutMs: number;
  readonly statementTimeoutMs: number;
  readonly maxWaiting: number;
  readonly onConnectionError: (error: Error) => void;
  readonly preparedStatements: number;
}

export const DEFAULT_ACQUIRE_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_WAITING = 100;
export const DEFAULT_PREPARED_STATEMENTS = 100;
/** How much longer than the statement timeout the client waits for an answer that never comes (a silent network). */
const SILENT_NETWORK_MARGIN_MS = 2_000;

export function resolveBounds(bounds: ConnectionBounds = {}): ResolvedBounds {
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`@scimkit/sql: ${name} must be a positive number of milliseconds, got ${String(value)}`);
    return value;
  };
  return {
    acquireTimeoutMs: positive(bounds.acquireTimeoutMs, DEFAULT_ACQUIRE_TIMEOUT_MS, 'acquireTimeoutMs'),
    statementTimeoutMs: positive(bounds.statementTimeoutMs, DEFAULT_STATEMENT_TIMEOUT_MS, 'statementTimeoutMs'),
    maxWaiting: Math.floor(positive(bounds.maxWaiting, DEFAULT_MAX_WAITING, 'maxWaiting')),
    onConnectionError: bounds.onConnectionError ?? (() => undefined),
    preparedStatements: bounds.preparedStatements === undefined ? DEFAULT_PREPARED_STATEMENTS : Math.max(0, Math.floor(bounds.preparedStatements)),
  };
}

/** One error reported once, though it may reach both a connection's listener and its pool's. */
function reporter(report: (error: Error) => void): (error: unknown) => void {
  const seen = new WeakSet<object>();
  return (error) => {
    if (typeof error === 'object' && error !== null) {
      if (seen.has(error)) return;
      seen.add(error);
    }
    try {
      report(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A listener never changes what the pool does.
    }
  };
}

/**
 * Waits for `acquire` at most `bounds.acquireTimeoutMs`, with at most `bounds.maxWaiting` callers
 * waiting at once. A connection that arrives after the caller gave up is handed to `giveBack`.
 */
function boundedAcquire<C>(bounds: ResolvedBounds, waiting: { count: number }, acquire: () => Promise<C>, giveBack: (connection: C) => void): Promise<C> {
  if (waiting.count >= bounds.maxWaiting) {
    return Promise.reject(new StoreUnavailableError('too many requests are waiting for a database connection', { retryAfterSeconds: 2 }));
  }
  waiting.count++;
  return new Promise<C>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      waiting.count--;
      reject(new StoreUnavailableError(`no database connection came free in time (${bounds.acquireTimeoutMs} ms)`, { retryAfterSeconds: 2 }));
    }, bounds.acquireTimeoutMs);
    acquire().then(
      (connection) => {
        if (settled) return giveBack(connection);
        settled = true;
        waiting.count--;
        clearTimeout(timer);
        resolve(connection);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        waiting.count--;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** `promise`, or a rejection once `ms` pass without it settling (then `onTimeout` runs). */
function withinTime<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`the statement got no answer within ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

interface PgRawClient {
  query(...args: unknown[]): unknown;
  release(error?: Error | boolean): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

interface PgRawPool {
  connect(): Promise<PgRawClient>;
  end(): Promise<void>;
  on?(event: 'error' | 'connect', listener: (value: any) => void): unknown;
  readonly options?: { readonly statement_timeout?: unknown };
}

/**
 * A `pg` Pool as Kysely's PostgresDialect takes it, bounded: `'error'` listeners on the pool and on
 * every connection (an `'error'` event nobody hears ends the Node process); a connection waited for
 * at most `acquireTimeoutMs`, with at most `maxWaiting` waiting; each new connection's
 * `statement_timeout` (unless the pool's own options set one) and
 * `idle_in_transaction_session_timeout` set once; an answer that never comes given up
 * 2 s after the statement timeout; a connection that broke destroyed on release instead of returned;
 * a statement that repeats sent named (`preparedStatements`, see statementNamer).
 */
export function boundedPgPool(pool: PgRawPool, bounds: ResolvedBounds): PgRawPool {
  const report = reporter(bounds.onConnectionError);
  const broken = new WeakMap<PgRawClient, Error>();
  const prepared = new WeakSet<PgRawClient>();
  const wrapped = new WeakMap<PgRawClient, PgRawClient>();
  const waiting = { count: 0 };
  const ownTimeout = typeof pool.options?.statement_timeout === 'number' && pool.options.statement_timeout > 0;
  const watch = (client: PgRawClient): void => {
    if (prepared.has(client)) return;
    prepared.add(client);
    client.on?.('error', (error) => {
      if (!broken.has(client)) broken.set(client, error);
      report(error);
    });
  };
  pool.on?.('error', (error: Error) => report(error));
  // A connection's own listener for its whole life: pg emits 'error' on a connection the server
  // closes even while it is checked out between statements.
  pool.on?.('connect', (client: PgRawClient) => watch(client));
  const settings = [
    ...(ownTimeout ? [] : [`SET statement_timeout = ${Math.ceil(bounds.statementTimeoutMs)}`]),
    // A transaction a stalled process leaves open is ended by the server, releasing its locks.
    `SET idle_in_transaction_session_timeout = ${Math.max(Math.ceil(bounds.statementTimeoutMs), 5_000)}`,
  ].join('; ');
  const answerLimit = bounds.statementTimeoutMs + SILENT_NETWORK_MARGIN_MS;
  const nameOf = statementNamer(bounds.preparedStatements);
  const wrap = (client: PgRawClient): PgRawClient => {
    let known = wrapped.get(client);
    if (known !== undefined) return known;
    let fresh = true;
    known = {
      query: (...args: unknown[]) => {
        const gone = broken.get(client);
        // A cursor (a stream) is not a statement of ours: passed through.
        if (typeof args[0] !== 'string') return client.query(...args);
        if (gone !== undefined) return Promise.reject(gone);
        const run = async (): Promise<unknown> => {
          if (fresh) {
            fresh = false;
            await client.query(settings);
          }
          const parameters = Array.isArray(args[1]) ? (args[1] as unknown[]) : [];
          const name = nameOf(args[0] as string, parameters);
          return name === undefined ? client.query(...args) : client.query({ name, text: args[0], values: parameters });
        };
        return withinTime(run(), answerLimit, () => {
          if (!broken.has(client)) broken.set(client, new Error('Query read timeout'));
        });
      },
      release: (error?: Error | boolean) => client.release(broken.get(client) ?? error),
    };
    wrapped.set(client, known);
    return known;
  };
  return {
    connect: async () => {
      const client = await boundedAcquire(bounds, waiting, () => pool.connect(), (late) => late.release());
      watch(client);
      return wrap(client);
    },
    end: () => pool.end(),
  };
}

interface MysqlRawConnection {
  query(sql: unknown, parameters?: unknown, callback?: (error: unknown, result: unknown) => void): { stream(options?: unknown): unknown };
  execute?(sql: unknown, parameters: unknown, callback: (error: unknown, result: unknown) => void): unknown;
  release(): void;
  destroy?(): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

/** A value mysql2's binary protocol sends as the text protocol would (no object: those it would send as JSON, which MariaDB refuses). */
function bindable(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;
}

interface MysqlRawPool {
  getConnection(callback: (error: unknown, connection: MysqlRawConnection) => void): void;
  end(callback: (error: unknown) => void): void;
  on?(event: 'error' | 'connection', listener: (value: any) => void): unknown;
}

/**
 * A `mysql2` pool (callback API) as Kysely's MysqlDialect takes it, bounded like
 * {@link boundedPgPool}: `'error'` listeners on every connection for its whole life (mysql2's own
 * is a `once`), acquire timeout and waiting bound, each statement given mysql2's `timeout` (the
 * connection is then destroyed, not reused), `innodb_lock_wait_timeout` and `lock_wait_timeout` set
 * once per connection (whole seconds, at least 1); a statement that repeats sent as a server-side
 * prepared statement (`preparedStatements`: mysql2's `execute`, prepared once per connection and
 * then only executed; the texts chosen as statementNamer chooses PostgreSQL's, so that a
 * connection holds at most that many, far below the server's `max_prepared_stmt_count`).
 */
export function boundedMysqlPool(pool: MysqlRawPool, bounds: ResolvedBounds): MysqlRawPool {
  const report = reporter(bounds.onConnectionError);
  const broken = new WeakMap<MysqlRawConnection, Error>();
  const watched = new WeakSet<MysqlRawConnection>();
  const wrapped = new WeakMap<MysqlRawConnection, MysqlRawConnection>();
  const waiting = { count: 0 };
  const watch = (connection: MysqlRawConnection): void => {
    if (watched.has(connection)) return;
    watched.add(connection);
    connection.on?.('error', (error) => {
      if (!broken.has(connection)) broken.set(connection, error);
      report(error);
    });
  };
  pool.on?.('error', (error: Error) => report(error));
  pool.on?.('connection', (connection: MysqlRawConnection) => watch(connection));
  const timeout = Math.ceil(bounds.statementTimeoutMs);
  // Row locks (InnoDB) and table or metadata locks (LOCK TABLES, DDL) are waited for at most the statement timeout, in whole seconds.
  const seconds = Math.max(1, Math.floor(bounds.statementTimeoutMs / 1000));
  const lockWait = `SET SESSION innodb_lock_wait_timeout = ${seconds}, lock_wait_timeout = ${seconds}`;
  const nameOf = statementNamer(bounds.preparedStatements);
  const wrap = (connection: MysqlRawConnection): MysqlRawConnection => {
    let known = wrapped.get(connection);
    if (known !== undefined) return known;
    let fresh = true;
    const timed = (sql: unknown, parameters: unknown, callback: (error: unknown, result: unknown) => void) => {
      const done = (error: unknown, result: unknown) => {
        if (error !== null && error !== undefined && (error as { code?: unknown }).code === 'PROTOCOL_SEQUENCE_TIMEOUT' && !broken.has(connection)) {
          broken.set(connection, error as Error);
        }
        callback(error, result);
      };
      const prepare = connection.execute !== undefined && typeof sql === 'string' && Array.isArray(parameters) && parameters.every(bindable) && nameOf(sql, parameters) !== undefined;
      return prepare ? connection.execute?.({ sql, timeout }, parameters, done) : connection.query({ sql, timeout }, parameters, done);
    };
    known = {
      query: (sql: unknown, parameters?: unknown, callback?: (error: unknown, result: unknown) => void) => {
        // Without a callback: a stream (Kysely's streamQuery), passed through.
        if (callback === undefined) return connection.query(sql, parameters);
        const gone = broken.get(connection);
        if (gone !== undefined) {
          process.nextTick(() => callback(gone, undefined));
          return { stream: () => undefined };
        }
        if (!fresh) {
          timed(sql, parameters, callback);
          return { stream: () => undefined };
        }
        fresh = false;
        timed(lockWait, [], (error) => (error !== null && error !== undefined ? callback(error, undefined) : void timed(sql, parameters, callback)));
        return { stream: () => undefined };
      },
      release: () => {
        if (broken.has(connection) && connection.destroy !== undefined) connection.destroy();
        else connection.release();
      },
    };
    wrapped.set(connection, known);
    return known;
  };
  return {
    getConnection: (callback) => {
      boundedAcquire(
        bounds,
        waiting,
        () =>
          new Promise<MysqlRawConnection>((resolve, reject) =>
            pool.getConnection((error, connection) => (error !== null && error !== undefined ? reject(error) : resolve(connection))),
          ),
        (late) => late.release(),
      ).then(
        (connection) => {
          watch(connection);
          callback(null, wrap(connection));
        },
        (error: unknown) => callback(error, undefined as never),
      );
    },
    end: (callback) => pool.end(callback),
  };
}

import { StoreUnavailableError } from '@scimkit/core';

/** A transient failure: what the client is told, and when to retry (seconds). */
interface Transient {
  readonly detail: string;
  readonly retryAfterSeconds: number;
}

const LOST: Transient = { detail: 'the database connection was lost', retryAfterSeconds: 1 };
const REFUSED: Transient = { detail: 'the database refused or did not accept a connection', retryAfterSeconds: 2 };
const ACQUIRE: Transient = { detail: 'no database connection came free in time', retryAfterSeconds: 2 };
const SHUTDOWN: Transient = { detail: 'the database is shutting down or restarting', retryAfterSeconds: 5 };
const STATEMENT: Transient = { detail: 'a database statement took longer than the statement timeout', retryAfterSeconds: 2 };
const LOCKED: Transient = { detail: 'data the request needs stayed locked longer than the lock timeout', retryAfterSeconds: 2 };
const CONFLICT: Transient = { detail: 'the write kept conflicting with concurrent writes (serialization failure or deadlock)', retryAfterSeconds: 1 };
const CROWDED: Transient = { detail: 'the database has too many connections', retryAfterSeconds: 2 };
const BUSY: Transient = { detail: 'the database file stayed locked by another writer longer than the busy timeout', retryAfterSeconds: 1 };

/**
 * Driver error codes that say "not now" rather than "wrong", for the three dialects: PostgreSQL
 * SQLSTATEs (PostgreSQL manual, appendix A; class 08 is matched as a whole), MySQL/MariaDB error
 * names as `mysql2` gives them (and their numbers), SQLite result codes as `better-sqlite3` gives them.
 */
const BY_CODE: ReadonlyMap<string | number, Transient> = new Map<string | number, Transient>([
  // PostgreSQL (pg, PGlite)
  ['57014', STATEMENT], // query_canceled: statement_timeout
  ['55P03', LOCKED], // lock_not_available: lock_timeout
  ['40001', CONFLICT], // serialization_failure
  ['40P01', CONFLICT], // deadlock_detected
  ['57P01', SHUTDOWN], // admin_shutdown (also pg_terminate_backend)
  ['57P02', SHUTDOWN], // crash_shutdown
  ['57P03', SHUTDOWN], // cannot_connect_now
  ['57P05', LOST], // idle_session_timeout
  ['25P03', LOST], // idle_in_transaction_session_timeout
  ['53300', CROWDED], // too_many_connections
  // MySQL / MariaDB (mysql2)
  ['PROTOCOL_CONNECTION_LOST', LOST],
  ['PROTOCOL_SEQUENCE_TIMEOUT', STATEMENT], // the query timeout of mysql2
  ['ER_LOCK_WAIT_TIMEOUT', LOCKED], // 1205: innodb_lock_wait_timeout
  [1205, LOCKED],
  ['ER_LOCK_DEADLOCK', CONFLICT], // 1213
  [1213, CONFLICT],
  ['ER_STATEMENT_TIMEOUT', STATEMENT], // MariaDB 1969: max_statement_time
  [1969, STATEMENT],
  ['ER_QUERY_TIMEOUT', STATEMENT], // MySQL 3024: max_execution_time
  [3024, STATEMENT],
  ['ER_QUERY_INTERRUPTED', STATEMENT], // 1317
  [1317, STATEMENT],
  ['ER_CON_COUNT_ERROR', CROWDED], // 1040
  [1040, CROWDED],
  ['ER_TOO_MANY_USER_CONNECTIONS', CROWDED], // 1203
  [1203, CROWDED],
  ['ER_USER_LIMIT_REACHED', CROWDED], // 1226: max_user_connections (MariaDB), a per-hour limit
  [1226, CROWDED],
  ['ER_SERVER_SHUTDOWN', SHUTDOWN], // 1053
  [1053, SHUTDOWN],
  ['ER_CONNECTION_KILLED', LOST], // 1927 (MariaDB: KILL CONNECTION)
  [1927, LOST],
  ['ER_CLIENT_INTERACTION_TIMEOUT', LOST], // MySQL 4031: wait_timeout
  [4031, LOST],
  ['ER_OPTION_PREVENTS_STATEMENT', SHUTDOWN], // 1290: a read-only replica during failover
  ['ER_READ_ONLY_MODE', SHUTDOWN], // 1836
  ['ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION', SHUTDOWN], // 1792
  // SQLite (better-sqlite3): another connection holds the file's lock past the busy timeout
  ['SQLITE_BUSY', BUSY],
  ['SQLITE_BUSY_SNAPSHOT', BUSY],
  ['SQLITE_BUSY_RECOVERY', BUSY],
  ['SQLITE_BUSY_TIMEOUT', BUSY],
  ['SQLITE_LOCKED', BUSY],
  ['SQLITE_LOCKED_SHAREDCACHE', BUSY],
  // Node sockets (and DNS during a failover)
  ['ECONNREFUSED', REFUSED],
  ['ECONNRESET', LOST],
  ['EPIPE', LOST],
  ['ETIMEDOUT', REFUSED],
  ['EHOSTUNREACH', REFUSED],
  ['ENETUNREACH', REFUSED],
  ['EAI_AGAIN', REFUSED],
  ['ENOTFOUND', REFUSED],
]);

/** What the drivers and this package's bounded pools say when a connection is gone, unusable or not to be had. */
const BY_MESSAGE: readonly (readonly [RegExp, Transient])[] = [
  [/^timeout exceeded when trying to connect$/, ACQUIRE], // pg-pool
  [/^no database connection came free in time/, ACQUIRE], // bounded-pools
  [/^too many requests are waiting for a database connection/, ACQUIRE],
  [/^Connection terminated due to connection timeout$/, REFUSED],
  [/^Connection terminated/, LOST],
  [/^Query read timeout$/, STATEMENT],
  [/^the statement got no answer within/, STATEMENT], // bounded-pools
  [/is not queryable$/, LOST],
  [/not currently accepting connections/, REFUSED], // PostgreSQL 55000 during ALLOW_CONNECTIONS false
  [/^Can't add new command when connection is in closed state$/, LOST], // mysql2
  [/^Pool is closed\.$/, SHUTDOWN], // mysql2
  [/^Queue limit reached\.$/, ACQUIRE], // mysql2 queueLimit
  [/^Cannot use a pool after calling end on the pool$/, SHUTDOWN], // pg
  [/^PGlite is closed$/, SHUTDOWN],
  [/^database is locked$/, BUSY], // SQLite, without a code
];

function transientOf(error: unknown): Transient | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errno, message } = error as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof code === 'string') {
    const known = BY_CODE.get(code);
    if (known !== undefined) return known;
    if (/^08[0-9A-Z]{3}$/.test(code)) return LOST;
  }
  if (typeof errno === 'number') {
    const known = BY_CODE.get(errno);
    if (known !== undefined) return known;
  }
  if (typeof message === 'string') {
    for (const [pattern, transient] of BY_MESSAGE) if (pattern.test(message)) return transient;
  }
  return undefined;
}

/**
 * The {@link StoreUnavailableError} a driver error stands for (PostgreSQL through `pg` or PGlite,
 * MySQL/MariaDB through `mysql2`, SQLite through `better-sqlite3`), or undefined for an error that is
 * not transient (a bug, a constraint the store does not expect, a wrong password): the server
 * answers the first 503 with `Retry-After`, the second 500 (docs/stores/own-tables.md, "Timeouts and
 * failures"). A cause wrapped by Kysely or an `AggregateError` is looked at too.
 */
export function classifySqlError(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  for (let current = error, depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const transient = transientOf(current);
    if (transient !== undefined) return new StoreUnavailableError(transient.detail, { retryAfterSeconds: transient.retryAfterSeconds, cause: error });
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const inner = errors.map(classifySqlError).find((found) => found !== undefined);
      if (inner !== undefined) return new StoreUnavailableError(inner.message, { retryAfterSeconds: inner.retryAfterSeconds, cause: error });
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A serialization failure or deadlock: the whole transaction may be run again (it was rolled back). */
export function isRetryableConflict(error: unknown): boolean {
  return transientOf(error) === CONFLICT;
}

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

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "wrong" (PostgreSQL manual, appendix A,
 * "PostgreSQL Error Codes"); class 08 (connection exception) is matched as a whole.
 */
const BY_SQLSTATE: ReadonlyMap<string, Transient> = new Map([
  ['57014', STATEMENT], // query_canceled: statement_timeout
  ['55P03', LOCKED], // lock_not_available: lock_timeout
  ['40001', CONFLICT], // serialization_failure
  ['40P01', CONFLICT], // deadlock_detected
  ['57P01', SHUTDOWN], // admin_shutdown (also pg_terminate_backend)
  ['57P02', SHUTDOWN], // crash_shutdown
  ['57P03', SHUTDOWN], // cannot_connect_now (starting up, recovering)
  ['57P05', LOST], // idle_session_timeout
  ['25P03', LOST], // idle_in_transaction_session_timeout
  ['53300', CROWDED], // too_many_connections
]);

/** Socket-level errors of Node (and of DNS during a failover). */
const BY_SYSCALL: ReadonlyMap<string, Transient> = new Map([
  ['ECONNREFUSED', REFUSED],
  ['ECONNRESET', LOST],
  ['EPIPE', LOST],
  ['ETIMEDOUT', REFUSED],
  ['EHOSTUNREACH', REFUSED],
  ['ENETUNREACH', REFUSED],
  ['EAI_AGAIN', REFUSED],
  ['ENOTFOUND', REFUSED],
]);

/** What `pg`, `pg-pool` and PGlite say when a connection is gone, unusable or not to be had. */
const BY_MESSAGE: readonly (readonly [RegExp, Transient])[] = [
  [/^timeout exceeded when trying to connect$/, ACQUIRE],
  [/^Connection terminated due to connection timeout$/, REFUSED],
  [/^Connection terminated/, LOST],
  [/^Query read timeout$/, STATEMENT],
  [/is not queryable$/, LOST],
  [/not currently accepting connections/, REFUSED], // 55000 during ALLOW_CONNECTIONS false
  [/^Cannot use a pool after calling end on the pool$/, SHUTDOWN],
  [/^PGlite is closed$/, SHUTDOWN],
];

function transientOf(error: unknown): Transient | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    const known = BY_SQLSTATE.get(code) ?? BY_SYSCALL.get(code);
    if (known !== undefined) return known;
    if (/^08[0-9A-Z]{3}$/.test(code)) return LOST;
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string') {
    for (const [pattern, transient] of BY_MESSAGE) if (pattern.test(message)) return transient;
  }
  return undefined;
}

/**
 * The {@link StoreUnavailableError} a driver error stands for, or undefined for an error that is
 * not transient (a bug, a constraint the store does not expect, a wrong password): the server
 * answers the first with 503 and `Retry-After`, the second with 500 (docs/stores/postgres.md).
 */
export function classifyError(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  const transient = transientOf(error);
  return transient === undefined ? undefined : new StoreUnavailableError(transient.detail, { retryAfterSeconds: transient.retryAfterSeconds, cause: error });
}

/** `error` as a {@link StoreUnavailableError} when it is transient, else unchanged: for `catch (e) { throw storeError(e) }`. */
export function storeError(error: unknown): unknown {
  return classifyError(error) ?? error;
}

/** Whether the connection that raised `error` must be destroyed rather than returned to the pool. */
export function breaksConnection(error: unknown): boolean {
  const transient = transientOf(error);
  return transient === LOST || transient === SHUTDOWN || transient === REFUSED || (transient === STATEMENT && (error as { code?: unknown }).code !== '57014');
}

/** A serialization failure or deadlock: the whole transaction may be run again (PostgreSQL manual, "Serialization Failure Handling"). */
export function isRetryableConflict(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '40001' || code === '40P01';
}

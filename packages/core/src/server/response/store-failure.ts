import { httpError } from '../../errors/scim-error.js';
import { isStoreUnavailable } from '../../store/store-unavailable.js';
import type { LogScope } from '../observe/log-scope.js';
import { writeLog } from '../observe/write-log.js';
import type { ScimFailure } from './scim-failure.js';
import type { ServerContext } from '../config/server-context.js';

/**
 * The answer to a throw that is not a SCIM error, reported to the logger. A store that says it is
 * unavailable for now (`StoreUnavailableError`) gets 503 with `Retry-After` (RFC 9110 §15.6.4,
 * §10.2.3) and its message as `detail`, logged as `warn`; anything else is a bug: a generic 500,
 * logged as `error` (docs/errors.md).
 */
export function unexpectedFailure(context: ServerContext, message: string, error: unknown, scope: LogScope = {}): ScimFailure {
  if (isStoreUnavailable(error)) {
    writeLog(context.logger, { level: 'warn', message: `store unavailable: ${error.message}`, ...scope, status: 503, error });
    return { ...httpError(503, `Service temporarily unavailable: ${error.message}; retry after ${error.retryAfterSeconds} s`), headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  }
  writeLog(context.logger, { level: 'error', message, ...scope, error });
  return httpError(500, 'Internal server error');
}

import type { LogScope } from './log-scope.js';
import { writeLog } from './write-log.js';
import type { ChangeEvent } from '../config/scim-server-config.js';
import type { ServerContext } from '../config/server-context.js';
import type { Exchange } from '../request/exchange.js';

/**
 * Tell the application about a committed change. The hook is awaited; a throw or rejection is
 * reported to the logger and never changes the response (the change is already stored). With a
 * request log, the change is also kept for the request's record.
 */
export async function notifyChange(exchange: Exchange, event: ChangeEvent): Promise<void> {
  const { recording } = exchange;
  if (recording !== undefined) (recording.changes ??= []).push(event);
  const { context } = exchange;
  const hook = context.config.onChange;
  if (hook === undefined) return;
  try {
    await hook(event);
  } catch (error) {
    reportError(context, 'the onChange hook failed', error, { requestId: event.requestId, ...(event.tenant === undefined ? {} : { tenant: event.tenant }) });
  }
}

/**
 * Report an unexpected failure to the configured logger as an `error` record, with what is known
 * of the request. Never throws, and never lets an async logger's rejection go unhandled.
 */
export function reportError(context: ServerContext, message: string, error: unknown, scope: LogScope = {}): void {
  writeLog(context.logger, { level: 'error', message, ...scope, error });
}

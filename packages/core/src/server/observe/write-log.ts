import type { ScimLogger, ScimLogRecord } from './scim-logger.js';

/**
 * Hand a record to the logger without ever letting the logger break a response: a throw is
 * swallowed, and so is an async logger's rejection (left unhandled, it would end the Node process).
 */
export function writeLog(logger: ScimLogger, record: ScimLogRecord): void {
  try {
    const outcome: unknown = logger.log(record);
    if (typeof outcome === 'object' && outcome !== null && typeof (outcome as { then?: unknown }).then === 'function') {
      (outcome as PromiseLike<unknown>).then(undefined, () => undefined);
    }
  } catch {
    // A broken logger must not turn a handled failure into an unhandled one.
  }
}

import { reportError } from './notify-change.js';
import type { ServerContext } from '../config/server-context.js';
import { endpointOf, logScopeOf, requestContextOf, type RequestTrail } from './request-trail.js';
import type { ResponseEvent } from './request-context.js';
import type { ScimLogRecord } from './scim-logger.js';
import { writeLog } from './write-log.js';

/** Run `onRequest` for a routed, authenticated request; a failure is reported and changes nothing. */
export async function announceRequest(context: ServerContext, trail: RequestTrail): Promise<void> {
  const hook = context.config.onRequest;
  if (hook === undefined) return;
  try {
    await hook({ ...requestContextOf(trail), operation: trail.operation ?? '', ...endpointOf(trail) });
  } catch (error) {
    reportError(context, 'the onRequest hook failed', error, logScopeOf(trail));
  }
}

/**
 * The request is answered: one `info` log record (method, path, status, tenant, duration), then
 * `onResponse`, to be awaited; a failing hook is reported and changes nothing. Without the hook,
 * nothing is left to wait for (undefined): no extra turn of the event loop per request.
 */
export function finishRequest(context: ServerContext, trail: RequestTrail, status: number, durationMs: number): Promise<void> | undefined {
  // Built field by field: a spread followed by keys takes V8's slow path, on every request.
  const record: { -readonly [K in keyof ScimLogRecord]: ScimLogRecord[K] } = { level: 'info', message: 'request answered', requestId: trail.requestId, method: trail.method, path: trail.path };
  if (trail.tenant !== undefined) record.tenant = trail.tenant;
  record.status = status;
  record.durationMs = durationMs;
  writeLog(context.logger, record);
  const hook = context.config.onResponse;
  return hook === undefined ? undefined : respond(context, trail, hook, status, durationMs);
}

async function respond(context: ServerContext, trail: RequestTrail, hook: (event: ResponseEvent) => void | Promise<void>, status: number, durationMs: number): Promise<void> {
  try {
    await hook({ ...requestContextOf(trail), ...endpointOf(trail), status, durationMs });
  } catch (error) {
    reportError(context, 'the onResponse hook failed', error, logScopeOf(trail));
  }
}

import { reportError } from './notify-change.js';
import type { ScimRequest, ScimResponse } from '../request/scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import type { RecordedRequest, RequestRecorder } from './request-recorder.js';
import { logScopeOf, type RequestTrail } from './request-trail.js';

/**
 * Hand the answered request to the request log (`config.requestLog`). Synchronous and guarded: a
 * recorder that throws is reported to the logger and never changes the response
 * (docs/concepts/console.md).
 */
export function recordRequest(context: ServerContext, recorder: RequestRecorder, request: ScimRequest, response: ScimResponse, trail: RequestTrail, started: number, durationMs: number): void {
  try {
    const record: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      requestId: trail.requestId,
      startedAt: performance.timeOrigin + started,
      durationMs,
      request,
      response,
      path: trail.path,
      changes: trail.changes ?? [],
      compatibility: context.compatibility,
      unknownAttributes: context.config.unknownAttributes ?? 'reject',
    };
    if (trail.tenant !== undefined) record.tenant = trail.tenant;
    if (trail.principal !== undefined) record.principal = trail.principal;
    if (trail.operation !== undefined) record.operation = trail.operation;
    if (trail.resourceType !== undefined) record.resourceType = trail.resourceType;
    if (trail.resourceId !== undefined) record.resourceId = trail.resourceId;
    recorder.record(record);
  } catch (error) {
    reportError(context, 'the request log failed to record a request', error, logScopeOf(trail));
  }
}

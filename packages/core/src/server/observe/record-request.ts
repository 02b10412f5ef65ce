import { reportError } from './notify-change.js';
import type { ScimRequest, ScimResponse } from '../request/scim-request.js';
import type { ChangeEvent } from '../config/scim-server-config.js';
import type { ServerContext } from '../config/server-context.js';
import type { RecordedRequest, RequestRecorder } from './request-recorder.js';
import { logScopeOf, type RequestTrail } from './request-trail.js';

/** When this process's `performance.now()` started, read once (reading it costs about 60 ns). */
const TIME_ORIGIN = performance.timeOrigin;

/** The changes of a request that made none (shared: a recorder must not change what it receives). */
const NO_CHANGES: readonly ChangeEvent[] = Object.freeze([]);

/**
 * Hand the answered request to the request log (`config.requestLog`). Synchronous and guarded: a
 * recorder that throws is reported to the logger and never changes the response
 * (docs/concepts/console.md).
 */
export function recordRequest(context: ServerContext, recorder: RequestRecorder, request: ScimRequest, response: ScimResponse, trail: RequestTrail, started: number, durationMs: number): void {
  try {
    const record: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      requestId: trail.requestId,
      startedAt: TIME_ORIGIN + started,
      durationMs,
      request,
      response,
      path: trail.path,
      changes: trail.recording?.changes ?? NO_CHANGES,
      compatibility: context.compatibility,
      unknownAttributes: context.config.unknownAttributes ?? 'reject',
    };
    if (trail.tenant !== undefined) record.tenant = trail.tenant;
    if (trail.principal !== undefined) record.principal = trail.principal;
    if (trail.operation !== undefined) record.operation = trail.operation;
    if (trail.resourceType !== undefined) record.resourceType = trail.resourceType;
    if (trail.resourceId !== undefined) record.resourceId = trail.resourceId;
    const text = trail.recording?.requestBodyText;
    if (text !== undefined) record.requestBodyText = text;
    recorder.record(record);
  } catch (error) {
    reportError(context, 'the request log failed to record a request', error, logScopeOf(trail));
  }
}

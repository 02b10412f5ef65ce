import type { ScimRequest } from '../request/scim-request.js';
import type { LogScope } from './log-scope.js';
import type { RequestContext } from './request-context.js';
import { requestIdOf } from './request-id.js';
import type { ContextLike } from './scim-tracing.js';
import type { RequestRecording } from './request-recording.js';

/**
 * What the server learns about one request as it goes through the stages (internal, mutable): its
 * id from the start, then the tenant, the principal and the endpoint as they become known. Hooks,
 * log records and the request's span are made from it.
 */
export interface RequestTrail {
  readonly requestId: string;
  readonly method: string;
  path: string;
  tenant?: string;
  principal?: unknown;
  operation?: string;
  resourceType?: string;
  resourceId?: string;
  /** The endpoint as a template (`/Users/{id}`), for span names. */
  route?: string;
  /** The active OpenTelemetry context holding the request's span, when tracing. */
  traceContext?: ContextLike;
  /** An unexpected failure answered with a 500, for the span. */
  failure?: unknown;
  /** What the request log receives besides the trail, collected only when one is configured (`config.requestLog`). */
  recording?: RequestRecording;
}

/** Start the trail of a request; never throws, whatever `request` is. */
export function openTrail(request: ScimRequest): RequestTrail {
  let requestId: string;
  try {
    requestId = requestIdOf(request);
  } catch {
    requestId = globalThis.crypto.randomUUID();
  }
  return { requestId, method: stringField(request, 'method'), path: stringField(request, 'path') };
}

function stringField(request: ScimRequest, name: 'method' | 'path'): string {
  try {
    const value: unknown = request?.[name];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

/** The request context hooks see. */
export function requestContextOf(trail: RequestTrail): RequestContext {
  return {
    requestId: trail.requestId,
    method: trail.method,
    path: trail.path,
    ...(trail.tenant === undefined ? {} : { tenant: trail.tenant }),
    ...(trail.principal === undefined ? {} : { principal: trail.principal }),
  };
}

/** The endpoint fields of `RequestEvent` / `ResponseEvent`, when routed. */
export function endpointOf(trail: RequestTrail): { operation?: string; resourceType?: string; resourceId?: string } {
  return {
    ...(trail.operation === undefined ? {} : { operation: trail.operation }),
    ...(trail.resourceType === undefined ? {} : { resourceType: trail.resourceType }),
    ...(trail.resourceId === undefined ? {} : { resourceId: trail.resourceId }),
  };
}

/** The fields of a log record about this request. */
export function logScopeOf(trail: RequestTrail): LogScope {
  return { requestId: trail.requestId, method: trail.method, path: trail.path, ...(trail.tenant === undefined ? {} : { tenant: trail.tenant }) };
}

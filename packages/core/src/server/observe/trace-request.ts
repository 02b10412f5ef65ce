import type { ScimResponse } from '../request/scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import type { RequestTrail } from './request-trail.js';
import { SPAN_KIND_INTERNAL, SPAN_STATUS_ERROR } from './scim-tracing.js';
import { recordFailure } from './traced-store.js';

/**
 * Run `answer` inside the request's span when the server traces (`config.tracing`): span
 * `SCIM {METHOD} {route}`, a child of the active context (an HTTP server span, say), with the
 * method, route, status, tenant, operation and request id; an error status for a 5xx. The span's
 * context is left on the trail so store calls become its children.
 */
export async function traceRequest(context: ServerContext, trail: RequestTrail, answer: () => Promise<ScimResponse>): Promise<ScimResponse> {
  const tracing = context.config.tracing;
  const tracer = context.tracer;
  if (tracing === undefined || tracer === undefined) return answer();
  const parent = tracing.context.active();
  const span = tracer.startSpan(
    `SCIM ${trail.method}`,
    { kind: SPAN_KIND_INTERNAL, attributes: { 'http.request.method': trail.method, 'scim.request_id': trail.requestId } },
    parent,
  );
  trail.traceContext = tracing.trace.setSpan(parent, span);
  try {
    const response = await tracing.context.with(trail.traceContext, answer);
    if (trail.route !== undefined) {
      span.updateName(`SCIM ${trail.method} ${trail.route}`);
      span.setAttribute('http.route', trail.route);
    }
    span.setAttribute('http.response.status_code', response.status);
    if (trail.tenant !== undefined) span.setAttribute('scim.tenant', trail.tenant);
    if (trail.operation !== undefined) span.setAttribute('scim.operation', trail.operation);
    if (trail.resourceType !== undefined) span.setAttribute('scim.resource_type', trail.resourceType);
    if (trail.failure !== undefined) recordFailure(span, trail.failure);
    else if (response.status >= 500) span.setStatus({ code: SPAN_STATUS_ERROR });
    return response;
  } finally {
    span.end();
  }
}

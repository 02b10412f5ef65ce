import { httpError } from '../../errors/scim-error.js';
import { authenticate } from './authenticate.js';
import { describeEndpoint } from '../observe/describe-endpoint.js';
import { finishRequest } from '../observe/finish-request.js';
import { actingTenant, locateTenant } from '../tenancy/locate-tenant.js';
import { logScopeOf, openTrail } from '../observe/request-trail.js';
import { reportError } from '../observe/notify-change.js';
import { route } from './route.js';
import type { AdmissionEvent } from '../config/scim-server-config.js';
import type { ScimRequest, ScimResponse } from './scim-request.js';
import { errorResponse } from '../response/serialize.js';
import type { ServerContext } from '../config/server-context.js';

/**
 * The pre-body stage (`config.admit`, e.g. a rate limit): authenticate the request's headers, route
 * it, and ask the hook. Undefined lets the adapter read the body and call `handle()` (which
 * authenticates again: `authenticate` only reads headers); a refusal is answered here, with its
 * request id and its log record, before a byte of the body is read or a store is called.
 * A request with a body is refused with `Connection: close`, so its unread body goes with the socket.
 */
export async function admitRequest(server: ServerContext, request: ScimRequest): Promise<ScimResponse | undefined> {
  const hook = server.config.admit;
  if (hook === undefined) return undefined;
  const started = performance.now();
  const trail = openTrail(request);
  let response: ScimResponse;
  try {
    const located = locateTenant(server, request, trail.path);
    if (!located.ok) return undefined;
    trail.path = located.value.path;
    const routed = route(server, trail.method, trail.path);
    if (routed.ok) describeEndpoint(trail, routed.value);
    const caller = await authenticate(server, located.value.request, logScopeOf(trail));
    const tenant = caller.ok ? actingTenant(located.value.tenant, caller.value.tenant) : undefined;
    // Refused credentials, or a tenant mismatch: handle() gives the answer, with its own record.
    if (!caller.ok || tenant === undefined || !tenant.ok) return undefined;
    const { principal, scopes } = caller.value;
    if (tenant.value !== undefined) trail.tenant = tenant.value;
    if (principal !== undefined) trail.principal = principal;
    const event: AdmissionEvent = {
      request: located.value.request,
      authenticated: true,
      ...(principal === undefined ? {} : { principal }),
      ...(tenant.value === undefined ? {} : { tenant: tenant.value }),
      ...(scopes === undefined ? {} : { scopes }),
      ...(trail.operation === undefined ? {} : { operation: trail.operation }),
      ...(trail.resourceType === undefined ? {} : { resourceType: trail.resourceType }),
    };
    const refusal: unknown = await hook(event);
    if (refusal === undefined || refusal === null) return undefined;
    const { status, detail, headers } = refusal as { status?: unknown; detail?: unknown; headers?: unknown };
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599 || typeof detail !== 'string') {
      reportError(server, 'the admit hook returned something that is not undefined or { status, detail, headers? }', refusal, logScopeOf(trail));
      response = errorResponse(httpError(500, 'Internal server error'));
    } else {
      const extra = typeof headers === 'object' && headers !== null ? (headers as Record<string, string>) : {};
      response = errorResponse({
        ...httpError(status, detail),
        headers: { ...extra, ...(hasBody(request) ? { Connection: 'close' } : {}) },
      });
    }
  } catch (error) {
    trail.failure = error;
    reportError(server, 'unexpected failure while admitting a request', error, logScopeOf(trail));
    response = errorResponse(httpError(500, 'Internal server error'));
  }
  const answered = { ...response, headers: { ...response.headers, 'X-Request-Id': trail.requestId } };
  const finished = finishRequest(server, trail, answered.status, performance.now() - started);
  if (finished !== undefined) await finished;
  return answered;
}

/** RFC 9112 §6.3: a request declares a body with Content-Length (above 0) or Transfer-Encoding. */
function hasBody(request: ScimRequest): boolean {
  const headers = request.headers ?? {};
  let length: unknown;
  let encoding: unknown;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length') length = value;
    else if (lower === 'transfer-encoding') encoding = value;
  }
  return encoding !== undefined || (length !== undefined && String(length) !== '0');
}

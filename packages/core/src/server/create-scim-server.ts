import { ScimException } from '../errors/scim-error.js';
import type { SchemaRegistry } from '../schema/schema-registry.js';
import { admitRequest } from './request/admission.js';
import { authorizeOperation } from './request/authorize.js';
import { authenticate } from './request/authenticate.js';
import { postBulk } from './endpoints/bulk/post-bulk.js';
import { answerMe } from './endpoints/me/me-endpoint.js';
import { resolveBaseUrl } from './request/base-url.js';
import { getResourceType, listResourceTypes } from './endpoints/discovery/resource-types-endpoint.js';
import { getSchema, listSchemas } from './endpoints/discovery/schemas-endpoint.js';
import { getServiceProviderConfig } from './endpoints/discovery/service-provider-config.js';
import { describeEndpoint } from './observe/describe-endpoint.js';
import { announceRequest, finishRequest } from './observe/finish-request.js';
import { actingTenant, locateTenant } from './tenancy/locate-tenant.js';
import { logScopeOf, openTrail, type RequestTrail } from './observe/request-trail.js';
import { traceRequest } from './observe/trace-request.js';
import { tracedStore } from './observe/traced-store.js';
import { deadlineStore, type StoreDeadlineState } from './request/store-deadline.js';
import type { Exchange } from './request/exchange.js';
import { checkQueryParameters } from './request/query-parameter-limit.js';
import { createResource } from './endpoints/resources/create-resource.js';
import { deleteResource } from './endpoints/resources/delete-resource.js';
import { listResources, searchResources } from './endpoints/resources/list-resources.js';
import { patchResource } from './endpoints/resources/patch-resource.js';
import { readResource } from './endpoints/resources/read-resource.js';
import { replaceResource } from './endpoints/resources/replace-resource.js';
import { rootSearch } from './endpoints/resources/root-search.js';
import { route, type Endpoint } from './request/route.js';
import type { ScimServerConfig } from './config/scim-server-config.js';
import type { ScimRequest, ScimResponse } from './request/scim-request.js';
import { errorResponse } from './response/serialize.js';
import { unexpectedFailure } from './response/store-failure.js';
import { createServerContext, type ServerContext } from './config/server-context.js';
import { recordRequest } from './observe/record-request.js';
import { withEntry } from '../json/with-entry.js';

/** A configured SCIM service provider. Transport-free: adapters feed it `ScimRequest`s. */
export interface ScimServer {
  /**
   * Answer one request. Never rejects: every failure, including a throwing store or hook, becomes
   * a SCIM error response (an unexpected one a generic 500, reported to the logger).
   */
  handle(request: ScimRequest): Promise<ScimResponse>;
  /**
   * Decide on a request before its body is read (`config.admit`, a rate limit): the response
   * refusing it, or undefined to read the body and `handle()` it. Never rejects. Adapters call it
   * first; without `config.admit` it answers undefined at once.
   */
  admit(request: ScimRequest): Promise<ScimResponse | undefined>;
  /** The schemas and resource types this server serves. */
  readonly registry: SchemaRegistry;
  /** The configuration the server was created with. */
  readonly config: ScimServerConfig;
}

/**
 * Create a SCIM 2.0 server (RFC 7644) from its configuration. Throws a TypeError for an invalid
 * configuration (a programmer error at start-up); everything after that is answered as data.
 *
 * Each request runs the same stages: authenticate → route → parse → load → precondition →
 * validate → execute → project → serialize (see `server/operations`).
 */
export function createScimServer(config: ScimServerConfig): ScimServer {
  const context = createServerContext(config);
  return {
    registry: context.registry,
    config,
    handle: (request) => handle(context, request),
    admit: (request) => admitRequest(context, request),
  };
}

async function handle(context: ServerContext, request: ScimRequest): Promise<ScimResponse> {
  const started = performance.now();
  const trail = openTrail(request);
  const recorder = context.config.requestLog;
  if (recorder !== undefined) trail.recording = {};
  const answered = context.tracer === undefined ? answer(context, request, trail) : traceRequest(context, trail, () => answer(context, request, trail));
  const response = withRequestId(await answered, trail.requestId);
  const durationMs = performance.now() - started;
  const finished = finishRequest(context, trail, response.status, durationMs);
  if (finished !== undefined) await finished;
  if (recorder !== undefined) recordRequest(context, recorder, request, response, trail, started, durationMs);
  // RFC 9110 §9.3.2: a HEAD answer is the GET answer's status and headers, without content.
  return isHead(request) ? { status: response.status, headers: response.headers } : response;
}

function isHead(request: ScimRequest): boolean {
  try {
    return typeof request?.method === 'string' && request.method.toUpperCase() === 'HEAD';
  } catch {
    return false;
  }
}

/** Every response carries the request's id, so a client can quote it and logs can be joined. */
function withRequestId(response: ScimResponse, requestId: string): ScimResponse {
  return withEntry(response, 'headers', withEntry(response.headers, 'X-Request-Id', requestId));
}

async function answer(server: ServerContext, request: ScimRequest, trail: RequestTrail): Promise<ScimResponse> {
  try {
    const located = locateTenant(server, request, trail.path);
    const scoped = located.ok ? located.value.request : request;
    const urlTenant = located.ok ? located.value.tenant : undefined;
    const prefix = located.ok ? located.value.prefix : '';
    if (located.ok) trail.path = located.value.path;
    if (urlTenant !== undefined) trail.tenant = urlTenant;
    // Routed for the request's log record and span only: authentication answers first, so an
    // unauthenticated client learns nothing of the routes (no 404/405/501, nor which paths name a tenant).
    const routed = located.ok ? route(server, trail.method, trail.path) : located;
    if (routed.ok) describeEndpoint(trail, routed.value);
    const caller = await authenticate(server, scoped, logScopeOf(trail));
    if (!caller.ok) return errorResponse(caller.error);
    if (caller.value.principal !== undefined) trail.principal = caller.value.principal;
    if (!routed.ok) return errorResponse(routed.error);
    const bounded = checkQueryParameters(request, server.limits.maxQueryParameters);
    if (!bounded.ok) return errorResponse(bounded.error);
    const tenant = actingTenant(urlTenant, caller.value.tenant);
    if (!tenant.ok) return errorResponse(tenant.error);
    if (tenant.value !== undefined) trail.tenant = tenant.value;

    // A tenant with its own configuration has its own context (schemas, types, tolerances).
    const context = tenant.value === undefined || server.tenants === undefined ? server : await server.tenants.get(tenant.value);
    const endpoint = context === server ? routed : route(context, trail.method, trail.path);
    if (!endpoint.ok) return errorResponse(endpoint.error);
    if (server.config.onRequest !== undefined) await announceRequest(server, trail);
    const traced = tracedContext(context, trail);
    const deadline: StoreDeadlineState = {};
    const exchange: Exchange = {
      context: withDeadline(traced, traced, deadline),
      request: scoped,
      caller: caller.value,
      baseUrl: resolveBaseUrl(context, request) + prefix,
      storeContext: { ...(tenant.value === undefined ? {} : { tenant: tenant.value }), requestId: trail.requestId },
      recording: trail.recording,
    };
    // Each Bulk operation gets a deadline of its own; all share what found the store unavailable.
    return await authorizedDispatch(exchange, endpoint.value, (inner) => (traced.storeDeadlineMs === undefined ? inner : { ...inner, context: withDeadline(inner.context, traced, deadline) }));
  } catch (error) {
    if (error instanceof ScimException) return errorResponse(error.error);
    trail.failure = error;
    return errorResponse(unexpectedFailure(server, 'unexpected failure while handling a request', error, logScopeOf(trail)));
  }
}

/** `inner` with its store calls bounded by `context`'s store deadline (when it has one), sharing `state`. */
function withDeadline(inner: ServerContext, context: ServerContext, state: StoreDeadlineState): ServerContext {
  return context.storeDeadlineMs === undefined ? inner : { ...inner, store: deadlineStore(context.store, context.storeDeadlineMs, state) };
}

/** With tracing, the context whose store makes every call a child span of the request's span. */
function tracedContext(context: ServerContext, trail: RequestTrail): ServerContext {
  const { tracing } = context.config;
  if (tracing === undefined || context.tracer === undefined || trail.traceContext === undefined) return context;
  return { ...context, store: tracedStore(context.store, tracing, context.tracer, trail.traceContext) };
}

/**
 * `authorize` (when configured) before the operation runs: the request's, then each Bulk operation's
 * and `/Me`'s target. `renew` gives each Bulk operation its own store deadline.
 */
async function authorizedDispatch(exchange: Exchange, endpoint: Endpoint, renew: (inner: Exchange) => Exchange): Promise<ScimResponse> {
  const bulk = endpoint.operation === 'bulk';
  if (exchange.context.config.authorize === undefined) return bulk ? dispatch(exchange, endpoint, (inner, target) => dispatch(renew(inner), target)) : dispatch(exchange, endpoint);
  const refused = await authorizeOperation(exchange, endpoint, false);
  if (refused !== undefined) return errorResponse(refused);
  return dispatch(exchange, endpoint, async (inner, target) => {
    const denied = await authorizeOperation(inner, target, bulk);
    return denied === undefined ? dispatch(bulk ? renew(inner) : inner, target) : errorResponse(denied);
  });
}

async function dispatch(exchange: Exchange, endpoint: Endpoint, next: (exchange: Exchange, endpoint: Endpoint) => Promise<ScimResponse> = dispatch): Promise<ScimResponse> {
  switch (endpoint.operation) {
    case 'create':
      return createResource(exchange, endpoint.type);
    case 'list':
      return listResources(exchange, endpoint.type);
    case 'search':
      return searchResources(exchange, endpoint.type);
    case 'read':
      return readResource(exchange, endpoint.type, endpoint.id);
    case 'replace':
      return replaceResource(exchange, endpoint.type, endpoint.id);
    case 'patch':
      return patchResource(exchange, endpoint.type, endpoint.id);
    case 'delete':
      return deleteResource(exchange, endpoint.type, endpoint.id);
    case 'rootSearch':
      return rootSearch(exchange);
    case 'listSchemas':
      return listSchemas(exchange);
    case 'getSchema':
      return getSchema(exchange, endpoint.id);
    case 'listResourceTypes':
      return listResourceTypes(exchange);
    case 'getResourceType':
      return getResourceType(exchange, endpoint.id);
    case 'serviceProviderConfig':
      return getServiceProviderConfig(exchange);
    case 'bulk':
      // Each operation goes through this same dispatch: one pipeline for single and bulk requests.
      return postBulk(exchange, next);
    case 'me':
      return answerMe(exchange, endpoint.action, next);
  }
}

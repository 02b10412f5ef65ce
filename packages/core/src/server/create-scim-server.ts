import { httpError, ScimException } from '../errors/scim-error.js';
import type { SchemaRegistry } from '../schema/schema-registry.js';
import { authenticate } from './authenticate.js';
import { resolveBaseUrl } from './base-url.js';
import { getResourceType, listResourceTypes } from './discovery/resource-types-endpoint.js';
import { getSchema, listSchemas } from './discovery/schemas-endpoint.js';
import { getServiceProviderConfig } from './discovery/service-provider-config.js';
import type { Exchange } from './exchange.js';
import { checkQueryParameters } from './limits/query-parameter-limit.js';
import { reportError } from './notify-change.js';
import { createResource } from './operations/create-resource.js';
import { deleteResource } from './operations/delete-resource.js';
import { listResources, searchResources } from './operations/list-resources.js';
import { patchResource } from './operations/patch-resource.js';
import { readResource } from './operations/read-resource.js';
import { replaceResource } from './operations/replace-resource.js';
import { rootSearch } from './operations/root-search.js';
import { route, type Endpoint } from './route.js';
import type { ScimServerConfig } from './scim-server-config.js';
import type { ScimRequest, ScimResponse } from './scim-request.js';
import { errorResponse } from './serialize.js';
import { createServerContext, type ServerContext } from './server-context.js';

/** A configured SCIM service provider. Transport-free: adapters feed it `ScimRequest`s. */
export interface ScimServer {
  /**
   * Answer one request. Never rejects: every failure, including a throwing store or hook, becomes
   * a SCIM error response (an unexpected one a generic 500, reported to the logger).
   */
  handle(request: ScimRequest): Promise<ScimResponse>;
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
  };
}

async function handle(context: ServerContext, request: ScimRequest): Promise<ScimResponse> {
  const response = await answer(context, request);
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

async function answer(context: ServerContext, request: ScimRequest): Promise<ScimResponse> {
  try {
    const method = typeof request?.method === 'string' ? request.method : '';
    const path = typeof request?.path === 'string' ? request.path : '';
    // Authenticate first: an unauthenticated client learns nothing of the routes (no 404/405/501).
    const caller = await authenticate(context, request);
    if (!caller.ok) return errorResponse(caller.error);
    const routed = route(context, method, path);
    if (!routed.ok) return errorResponse(routed.error);
    const bounded = checkQueryParameters(request, context.limits.maxQueryParameters);
    if (!bounded.ok) return errorResponse(bounded.error);
    const exchange: Exchange = { context, request, caller: caller.value, baseUrl: resolveBaseUrl(context, request), storeContext: {} };
    return await dispatch(exchange, routed.value);
  } catch (error) {
    if (error instanceof ScimException) return errorResponse(error.error);
    reportError(context, 'scimkit: unexpected failure while handling a request', error);
    return errorResponse(httpError(500, 'Internal server error'));
  }
}

function dispatch(exchange: Exchange, endpoint: Endpoint): ScimResponse | Promise<ScimResponse> {
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
  }
}

import { err, ok, type Result } from '../../errors/result.js';
import { httpError } from '../../errors/scim-error.js';
import type { ScimFailure } from '../response/scim-failure.js';
import type { ServedType, ServerContext } from '../config/server-context.js';

/** What a request asks for, once its path and method are understood. */
export type Endpoint =
  | { readonly operation: 'create' | 'list' | 'search'; readonly type: ServedType }
  | { readonly operation: 'read' | 'replace' | 'patch' | 'delete'; readonly type: ServedType; readonly id: string }
  | { readonly operation: 'rootSearch' }
  | { readonly operation: 'listSchemas' }
  | { readonly operation: 'getSchema'; readonly id: string }
  | { readonly operation: 'listResourceTypes' }
  | { readonly operation: 'getResourceType'; readonly id: string }
  | { readonly operation: 'serviceProviderConfig' }
  | { readonly operation: 'bulk' }
  | { readonly operation: 'me'; readonly action: MeAction };

/** What a request to `/Me` does to the resource it stands for (RFC 7644 §3.11). */
export type MeAction = 'read' | 'replace' | 'patch' | 'delete';

/** Methods allowed at one path, each to the endpoint it reaches. */
type Place = ReadonlyMap<string, Endpoint>;

/**
 * Stage 2, route (RFC 7644 §3.2): map method and path to an endpoint. An unknown path is a 404;
 * a known path with a method it does not offer is a 405 with an `Allow` header. Path segments
 * match case-insensitively, a trailing slash is tolerated, and ids are percent-decoded.
 */
export function route(context: ServerContext, method: string, rawPath: string): Result<Endpoint, ScimFailure> {
  const path = rawPath.split(/[?#]/, 1)[0] ?? '';
  const raw = path.split('/').filter((segment) => segment !== '');
  const decoded = decodeSegments(raw);
  if (decoded === undefined) return err(httpError(404, 'Not found: the path is not valid percent-encoding'));
  const verb = method.toUpperCase();
  // A resource endpoint (every request but discovery, Bulk and /Me): only the endpoint asked for is built.
  const resource = resourceAt(context, decoded);
  if (resource !== undefined) {
    // RFC 9110 §9.3.2: HEAD is GET without the body, wherever GET is served.
    const endpoint = resourceEndpoint(resource, verb) ?? (verb === 'HEAD' ? resourceEndpoint(resource, 'GET') : undefined);
    if (endpoint !== undefined) return ok(endpoint);
  }
  const found = resource === undefined ? place(context, raw, decoded) : resourcePlace(context, decoded);
  if (found === 'notImplemented') return err(httpError(501, `${path} is not implemented by this service`));
  if (found === undefined || found.size === 0) return err(httpError(404, `No SCIM endpoint at ${describe(path)}`));
  // RFC 9110 §9.3.2: HEAD is GET without the body, wherever GET is served.
  const endpoint = found.get(verb) ?? (verb === 'HEAD' ? found.get('GET') : undefined);
  if (endpoint !== undefined) return ok(endpoint);
  const allow = [...found.keys()].join(', ');
  return err({ ...httpError(405, `Method ${method.toUpperCase()} is not allowed here; allowed: ${allow}`), headers: { Allow: allow } });
}

function place(context: ServerContext, raw: readonly string[], segments: readonly string[]): Place | 'notImplemented' | undefined {
  const first = segments[0]?.toLowerCase();
  if (first === undefined) return undefined;
  switch (first) {
    case 'schemas':
      // A schema URI may itself contain '/' (RFC 7644 §4): everything after /Schemas/ is the id.
      if (segments.length === 1) return new Map([['GET', { operation: 'listSchemas' }]]);
      return new Map([['GET', { operation: 'getSchema', id: decodeURIComponentSafe(raw.slice(1).join('/')) }]]);
    case 'resourcetypes':
      if (segments.length === 1) return new Map([['GET', { operation: 'listResourceTypes' }]]);
      if (segments.length === 2) return new Map([['GET', { operation: 'getResourceType', id: segments[1] ?? '' }]]);
      return undefined;
    case 'serviceproviderconfig':
    case 'serviceproviderconfigs':
      return segments.length === 1 ? new Map([['GET', { operation: 'serviceProviderConfig' }]]) : undefined;
    case 'serviceconfiguration':
      // The pre-RFC draft name, only as a tolerance (compatibility.serviceConfigurationPath); else a resource type may own it.
      if (!context.compatibility.serviceConfigurationPath) return resourcePlace(context, segments);
      return segments.length === 1 ? new Map([['GET', { operation: 'serviceProviderConfig' }]]) : undefined;
    case '.search':
      if (segments.length !== 1 || !context.types.some((type) => type.rootSearch)) return undefined;
      return new Map([['POST', { operation: 'rootSearch' }]]);
    case 'bulk':
      // RFC 7644 §3.7: a server that does not offer Bulk answers 501.
      if (segments.length !== 1) return undefined;
      return context.bulk === undefined ? 'notImplemented' : new Map([['POST', { operation: 'bulk' }]]);
    case 'me':
      // RFC 7644 §3.11: without a resolver from the principal to a resource, 501.
      if (segments.length !== 1) return undefined;
      return context.config.me === undefined ? 'notImplemented' : mePlace();
    default:
      return resourcePlace(context, segments);
  }
}

/** Where a path names a resource type's collection, its `.search` or one of its resources. */
interface ResourceAt {
  readonly type: ServedType;
  /** The segments after the type's. */
  readonly rest: readonly string[];
}

/** The resource place `segments` name, when `place` would hand them to resourcePlace (see there). */
function resourceAt(context: ServerContext, segments: readonly string[]): ResourceAt | undefined {
  const first = segments[0]?.toLowerCase();
  if (first === undefined || NAMED_PLACES.has(first)) return undefined;
  if (first === 'serviceconfiguration' && context.compatibility.serviceConfigurationPath) return undefined;
  const type = context.types.find((candidate) => startsWith(segments, candidate.segments));
  if (type === undefined) return undefined;
  const rest = segments.slice(type.segments.length);
  return rest.length <= 1 ? { type, rest } : undefined;
}

/** The endpoint `verb` reaches at a resource place: what resourcePlace's map holds for it. */
function resourceEndpoint(at: ResourceAt, verb: string): Endpoint | undefined {
  const { type, rest } = at;
  const can = type.operations;
  if (rest.length === 0) {
    if (verb === 'GET') return can.has('list') ? { operation: 'list', type } : undefined;
    return verb === 'POST' && can.has('create') ? { operation: 'create', type } : undefined;
  }
  const id = rest[0] ?? '';
  if (id.toLowerCase() === '.search') return verb === 'POST' && can.has('search') ? { operation: 'search', type } : undefined;
  switch (verb) {
    case 'GET':
      return can.has('read') ? { operation: 'read', type, id } : undefined;
    case 'PUT':
      return can.has('replace') ? { operation: 'replace', type, id } : undefined;
    case 'PATCH':
      return can.has('patch') ? { operation: 'patch', type, id } : undefined;
    case 'DELETE':
      return can.has('delete') ? { operation: 'delete', type, id } : undefined;
    default:
      return undefined;
  }
}

/** The first segments `place` answers itself (every other one may name a resource type). */
const NAMED_PLACES = new Set(['schemas', 'resourcetypes', 'serviceproviderconfig', 'serviceproviderconfigs', '.search', 'bulk', 'me']);

function mePlace(): Place {
  return new Map<string, Endpoint>([
    ['GET', { operation: 'me', action: 'read' }],
    ['PUT', { operation: 'me', action: 'replace' }],
    ['PATCH', { operation: 'me', action: 'patch' }],
    ['DELETE', { operation: 'me', action: 'delete' }],
  ]);
}

function resourcePlace(context: ServerContext, segments: readonly string[]): Place | undefined {
  const type = context.types.find((candidate) => startsWith(segments, candidate.segments));
  if (type === undefined) return undefined;
  const rest = segments.slice(type.segments.length);
  const can = type.operations;
  const methods = new Map<string, Endpoint>();
  if (rest.length === 0) {
    if (can.has('list')) methods.set('GET', { operation: 'list', type });
    if (can.has('create')) methods.set('POST', { operation: 'create', type });
  } else if (rest.length === 1 && rest[0]?.toLowerCase() === '.search') {
    // Case-insensitive like every other segment (and like the root `/.search`); ids are never `.search`.
    if (can.has('search')) methods.set('POST', { operation: 'search', type });
  } else if (rest.length === 1) {
    const id = rest[0] ?? '';
    if (can.has('read')) methods.set('GET', { operation: 'read', type, id });
    if (can.has('replace')) methods.set('PUT', { operation: 'replace', type, id });
    if (can.has('patch')) methods.set('PATCH', { operation: 'patch', type, id });
    if (can.has('delete')) methods.set('DELETE', { operation: 'delete', type, id });
  } else {
    return undefined;
  }
  return methods;
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((segment, index) => segments[index]?.toLowerCase() === segment);
}

function decodeSegments(raw: readonly string[]): string[] | undefined {
  const decoded: string[] = [];
  for (const segment of raw) {
    if (!segment.includes('%')) {
      decoded.push(segment);
      continue;
    }
    try {
      decoded.push(decodeURIComponent(segment));
    } catch {
      return undefined;
    }
  }
  return decoded;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function describe(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}

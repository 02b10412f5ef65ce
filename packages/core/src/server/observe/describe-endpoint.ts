import type { Endpoint } from '../request/route.js';
import type { ServedType } from '../config/server-context.js';
import type { RequestTrail } from './request-trail.js';

/** Record on the trail which endpoint a request reached, and its route template (`/Users/{id}`). */
export function describeEndpoint(trail: RequestTrail, endpoint: Endpoint): void {
  // Read generically, so an endpoint kind added later is described too.
  const { operation, type, id } = endpoint as { operation: string; type?: ServedType; id?: unknown };
  trail.operation = operation;
  if (type !== undefined) trail.resourceType = type.model.definition.name;
  if (typeof id === 'string') trail.resourceId = id;
  trail.route = routeOf(operation, type, typeof id === 'string', trail.path);
}

function routeOf(operation: string, type: ServedType | undefined, hasId: boolean, path: string): string {
  const base = type === undefined ? `/${firstSegment(path)}` : type.model.definition.endpoint;
  if (hasId) return `${base}/{id}`;
  return operation === 'search' ? `${base}/.search` : base;
}

function firstSegment(path: string): string {
  return path.split(/[?#]/, 1)[0]?.split('/').find((segment) => segment !== '') ?? '';
}

import { projectResource } from '../../schema/project-resource.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { AttributeSelection } from '../../schema/project-resource.js';
import type { ServedType } from '../config/server-context.js';
import { withEntry } from '../../json/with-entry.js';

/**
 * The canonical URL of a resource (RFC 7643 §3.1 `meta.location`): `{baseUrl}{endpoint}/{id}`.
 * Undefined for a type that cannot be read at its own URL.
 */
export function resourceLocation(type: ServedType, id: string, baseUrl: string): string | undefined {
  if (!type.operations.has('read')) return undefined;
  return `${baseUrl}${type.model.definition.endpoint}/${encodeURIComponent(id)}`;
}

/** The resource with its `meta.location` (when its type has one), as every response shows it. */
export function locateResource(type: ServedType, resource: ScimResource, baseUrl: string): ScimResource {
  const location = resourceLocation(type, resource.id, baseUrl);
  return location === undefined ? resource : withEntry(resource, 'meta', withEntry(resource.meta, 'location', location));
}

/**
 * Stage 8, project: the resource as served, with `meta.location` and only the attributes the
 * client asked for (RFC 7644 §3.4.2.5; RFC 7643 §2.2 `returned`).
 */
export function presentResource(type: ServedType, resource: ScimResource, baseUrl: string, selection: AttributeSelection): Record<string, unknown> {
  return projectResource(type.model, resource, selection, resourceLocation(type, resource.id, baseUrl));
}

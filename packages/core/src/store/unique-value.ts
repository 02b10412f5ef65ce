import type { ScimResource } from '../schema/scim-resource.js';
import type { UniqueAttribute } from './scim-store.js';
import { comparisonKey } from '../values/index.js';

/**
 * The value of a top-level unique attribute, as an index key: strings by {@link comparisonKey}, other
 * scalars tagged by type so `1` and `"1"` differ. Undefined when the resource has no value (an
 * absent value never conflicts).
 *
 * `path` is `userName` for a core attribute or `urn:…:employeeNumber` for an extension attribute
 * (see `UniqueAttribute`).
 */
export function uniqueValue(resource: ScimResource, unique: UniqueAttribute): string | undefined {
  return scalarKey(readTopLevel(resource, unique.path), unique.caseExact);
}

/** A scalar as an index key (strings by {@link comparisonKey}); undefined for anything else. */
export function scalarKey(value: unknown, caseExact: boolean): string | undefined {
  if (typeof value === 'string') return comparisonKey(value, caseExact);
  if (typeof value === 'number' || typeof value === 'boolean') return `\u0000${typeof value}:${String(value)}`;
  return undefined;
}

/** The value of a top-level attribute path (`userName`, or `urn:…:attr` inside the extension object). */
export function readTopLevel(resource: object, path: string): unknown {
  if (!path.toLowerCase().startsWith('urn:')) return own(resource, path);
  const cut = path.lastIndexOf(':');
  const container = own(resource, path.slice(0, cut));
  return typeof container === 'object' && container !== null ? own(container, path.slice(cut + 1)) : undefined;
}

function own(object: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

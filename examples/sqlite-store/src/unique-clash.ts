import type { ScimResource, UniqueAttribute } from '@scimkit/core';

/**
 * The first unique attribute (other than `userName`, which the database's unique index guards)
 * whose value another resource of the type already holds. Runs in the same synchronous step as the
 * write that follows it, so no other write can slip in between.
 */
export function uniqueClash(
  unique: readonly UniqueAttribute[],
  resource: ScimResource,
  others: Iterable<ScimResource>,
): string | undefined {
  const checked = unique.filter((attribute) => attribute.path !== 'userName');
  if (checked.length === 0) return undefined;
  for (const other of others) {
    if (other.id === resource.id) continue;
    for (const attribute of checked) {
      const mine = comparable(valueAt(resource, attribute.path), attribute.caseExact);
      if (mine !== undefined && mine === comparable(valueAt(other, attribute.path), attribute.caseExact)) return attribute.path;
    }
  }
  return undefined;
}

/** `userName` → `resource.userName`; `urn:…:employeeNumber` → `resource['urn:…']?.employeeNumber`. */
function valueAt(resource: ScimResource, path: string): unknown {
  const colon = path.lastIndexOf(':');
  if (colon < 0) return resource[path];
  const extension = resource[path.slice(0, colon)];
  return typeof extension === 'object' && extension !== null ? (extension as Record<string, unknown>)[path.slice(colon + 1)] : undefined;
}

function comparable(value: unknown, caseExact: boolean): string | undefined {
  if (typeof value === 'string') return caseExact ? value : value.toLowerCase();
  return typeof value === 'number' || typeof value === 'boolean' ? JSON.stringify(value) : undefined;
}

import { comparisonKey, type ScimResource, type UniqueAttribute } from '@scimkit/core';

/**
 * The `[attribute, key]` pairs a resource claims in `scim_unique_values`: one per unique attribute
 * it has a value for. The key is the value as the schema compares it: `comparisonKey` (NFC, lower-cased)
 * unless caseExact.
 */
export function uniqueValues(resource: ScimResource, unique: readonly UniqueAttribute[]): [string, string][] {
  const claimed: [string, string][] = [];
  for (const attribute of unique) {
    const value = valueAt(resource, attribute.path);
    if (typeof value === 'string') claimed.push([attribute.path, comparisonKey(value, attribute.caseExact)]);
    else if (typeof value === 'number' || typeof value === 'boolean') claimed.push([attribute.path, JSON.stringify(value)]);
  }
  return claimed;
}

/** `userName` → `resource.userName`; `urn:…:User:employeeNumber` → `resource['urn:…:User']?.employeeNumber`. */
function valueAt(resource: ScimResource, path: string): unknown {
  const colon = path.lastIndexOf(':');
  if (colon < 0) return resource[path];
  const extension = resource[path.slice(0, colon)];
  return typeof extension === 'object' && extension !== null ? (extension as Record<string, unknown>)[path.slice(colon + 1)] : undefined;
}

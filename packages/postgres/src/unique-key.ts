import { comparisonKey, type ScimResource, type UniqueAttribute } from '@scimkit/core';

/**
 * The unique attribute whose key the resource row keeps itself, in `scim_resources.unique_key`
 * under a unique index (schema version 6): `userName`, the one every User has (RFC 7643 §4.1.1).
 * Chosen by name, not by position in the schema, so that a change of the unique attributes never
 * moves a value between the row and `scim_unique_values`. Never change it: migration 6 moved the
 * values of this attribute into the row.
 */
export const ROW_KEY_ATTRIBUTE = 'userName';

/**
 * The key a unique attribute's value is stored under (`unique_key`, or `scim_unique_values`; RFC 7643 §2.2): a
 * string by the core's `uniqueKey` (as it is when the attribute is caseExact, else NFC-normalized then
 * lower-cased, so `Ä` typed precomposed or decomposed, in any case, is one value); other scalars
 * tagged by type, so `1` and `"1"` differ. Undefined when the resource has no value: an absent value never conflicts.
 */
export function uniqueKey(resource: ScimResource, unique: UniqueAttribute): string | undefined {
  const value = readTopLevel(resource, unique.path);
  if (typeof value === 'string') return `s:${comparisonKey(value, unique.caseExact)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value === 'number' ? 'n' : 'b'}:${String(value)}`;
  return undefined;
}

/** `userName`, or `urn:…:employeeNumber` for an extension attribute (see UniqueAttribute). */
function readTopLevel(resource: ScimResource, path: string): unknown {
  if (!path.toLowerCase().startsWith('urn:')) return own(resource, path);
  const cut = path.lastIndexOf(':');
  const container = own(resource, path.slice(0, cut));
  return typeof container === 'object' && container !== null ? own(container, path.slice(cut + 1)) : undefined;
}

function own(object: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

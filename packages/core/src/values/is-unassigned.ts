import { isJsonObject } from './json-object.js';

/**
 * RFC 7643 §2.5: an attribute is unassigned when it is absent, `null`, or an empty array ("SHALL be
 * considered to be equivalent in 'state'"). A complex value with nothing assigned in it (`{}`,
 * `{"givenName": null}`) carries nothing either and is treated the same way.
 */
export function isUnassigned(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) {
    for (const key in value) if (!isUnassigned(value[key])) return false;
    return true;
  }
  return false;
}

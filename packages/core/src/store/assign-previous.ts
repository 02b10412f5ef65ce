import { setOwn } from '../json/with-entry.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { StoreAssignment, StoreAssignPrevious } from './scim-store.js';

/**
 * What `current` holds of an assignment's attributes and of `meta` (StoreAssignPrevious), for a
 * store that has the resource before the step in hand: the values themselves, not copies.
 */
export function assignPrevious(current: ScimResource, assignment: StoreAssignment): StoreAssignPrevious {
  const previous: Record<string, unknown> = {};
  const source = current as Readonly<Record<string, unknown>>;
  for (const key of [...Object.keys(assignment.values), 'meta']) {
    if (Object.prototype.hasOwnProperty.call(source, key)) setOwn(previous, key, source[key]);
  }
  return previous;
}

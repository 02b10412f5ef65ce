import { setOwn } from '../../json/with-entry.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreAssignment, StoreAssignPrevious } from '../../store/scim-store.js';

/**
 * The resource as it was before an `assign` step (ScimStore.assign with `wantPrevious`): `after`
 * with what `previous` says each assigned attribute and `meta` held put back, and an assigned
 * attribute the resource did not have removed. The keys keep `after`'s order: an attribute the step
 * added is the one a store appends, so the result is the resource as a read before the step gives it.
 */
export function resourceBefore(after: ScimResource, assignment: StoreAssignment, previous: StoreAssignPrevious): ScimResource {
  const values = assignment.values;
  const source = after as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const assigned = key === 'meta' || Object.prototype.hasOwnProperty.call(values, key);
    if (!assigned) setOwn(out, key, source[key]);
    else if (Object.prototype.hasOwnProperty.call(previous, key)) setOwn(out, key, previous[key]);
  }
  return out as ScimResource;
}

import { checkResourceSize } from '../server/write/resource-size.js';
import type { ScimResource } from '../schema/scim-resource.js';
import { setOwn } from '../json/with-entry.js';
import { nextCounterVersion } from './next-counter-version.js';
import type { StoreAssignment } from './scim-store.js';

/** What an assignment makes of a stored resource (see ScimStore.assign). */
export type Assigned =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'declined' }
  | { readonly kind: 'changed'; readonly resource: Record<string, unknown> };

const UNCHANGED: Assigned = { kind: 'unchanged' };
const DECLINED: Assigned = { kind: 'declined' };

/**
 * `current` with `assignment.values` set, as a new object sharing everything else with `current`
 * (never mutated: it may be frozen): `unchanged` when `current` already holds every value,
 * `declined` when the result is larger than `assignment.maxResourceBytes`. The version advances as
 * a counter (nextCounterVersion), else to `assignment.freshVersion`. For in-process stores; the version is not compared here.
 */
export function assignedResource(current: ScimResource, assignment: StoreAssignment): Assigned {
  const { values } = assignment;
  if (holdsAll(current, values)) return UNCHANGED;
  const version = nextCounterVersion(current.meta.version) ?? assignment.freshVersion;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(current)) setOwn(out, key, current[key]);
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (typeof value !== 'object') {
      setOwn(out, key, value);
      continue;
    }
    const parent = own(current, key);
    const merged: Record<string, unknown> = {};
    if (isObject(parent)) for (const sub of Object.keys(parent)) setOwn(merged, sub, parent[sub]);
    for (const sub of Object.keys(value)) setOwn(merged, sub, value[sub]);
    setOwn(out, key, merged);
  }
  out['meta'] = { ...current.meta, lastModified: assignment.lastModified, version };
  const sized = checkResourceSize(out, { maxValuesPerAttribute: Number.POSITIVE_INFINITY, maxResourceBytes: assignment.maxResourceBytes });
  return sized.ok ? { kind: 'changed', resource: out } : DECLINED;
}

/** Whether `current` already holds every assigned value. */
function holdsAll(current: Readonly<Record<string, unknown>>, values: StoreAssignment['values']): boolean {
  for (const key of Object.keys(values)) {
    const value = values[key];
    const stored = own(current, key);
    if (typeof value !== 'object') {
      if (stored !== value) return false;
      continue;
    }
    if (!isObject(stored)) return false;
    for (const sub of Object.keys(value)) if (own(stored, sub) !== value[sub]) return false;
  }
  return true;
}

function own(object: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import type { MultiValuedChange } from '../store/scim-store.js';
import type { ScimResource } from './scim-resource.js';

/**
 * What a PATCH result shares with the stored resource, for one schema's members (the core
 * attributes, or one extension's): the values `validateResource` can take as they are, because
 * they are the stored, already validated values themselves.
 */
export interface MemberBaseline {
  /** True when `value`, given for the member `key`, is the stored value itself and the PATCH did not write `key`. */
  unchanged(key: string, value: unknown): boolean;
  /**
   * For a multi-valued member whose elements a PATCH only added or removed: how many leading
   * elements of `value` are stored elements, kept in their order (only the rest need checking).
   * Taken from the PATCH's reported change when it adds up (see `PatchFacts.changes`).
   */
  kept(key: string, path: string, value: readonly unknown[]): number;
}

/** A PATCH context with what `applyPatch` reported. */
export interface PatchFacts {
  readonly existing: ScimResource;
  readonly touched: ReadonlySet<string>;
  /**
   * `applyPatch`'s own report for this result: an attribute listed is the stored array without
   * `removed` (the others kept in order) followed by `added`. Trusted when the counts add up and
   * the array ends with `added`: the kept stored elements are then not compared one by one.
   */
  readonly changes?: readonly MultiValuedChange[];
}

/**
 * The baselines of a PATCH result: for one schema's members, `stored` being the stored members of
 * that schema (the resource, or the object under the extension URN) and `urn` the extension's
 * (undefined for the core).
 */
export function patchBaselines(facts: PatchFacts): (stored: Record<string, unknown> | undefined, urn: string | undefined) => MemberBaseline | undefined {
  const touched = new Set<string>();
  for (const key of facts.touched) touched.add(key.toLowerCase());
  const changes = new Map<string, MultiValuedChange>();
  for (const change of facts.changes ?? []) changes.set(change.attribute.toLowerCase(), change);
  return (stored, urn) => (stored === undefined ? undefined : memberBaseline(stored, urn === undefined ? touched : undefined, changes));
}

/** `touched`: the top-level keys written, when the members are top-level (the core's). */
function memberBaseline(stored: Record<string, unknown>, touched: ReadonlySet<string> | undefined, changes: ReadonlyMap<string, MultiValuedChange>): MemberBaseline {
  const storedValue = (key: string): unknown => (Object.prototype.hasOwnProperty.call(stored, key) ? stored[key] : undefined);
  return {
    unchanged(key, value) {
      if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
      // Extension members are compared one by one (their container is what `touched` names).
      return storedValue(key) === value && !(touched !== undefined && touched.has(key.toLowerCase()));
    },
    kept(key, path, value) {
      const before = storedValue(key);
      const change = changes.get(path.toLowerCase());
      if (change === undefined || !Array.isArray(before)) return 0;
      // As `applyPatch` reports it: the stored elements without the removed ones, in order, then
      // the added ones. When the counts add up and the array ends with the added elements, that
      // is the array, and the stored ones are not compared (a 100,000-member group is not walked).
      const { added, removed } = change;
      const kept = value.length - added.length;
      if (kept >= 0 && kept === before.length - removed.length && added.every((element, i) => value[kept + i] === element)) return kept;
      // Otherwise: the stored elements the PATCH kept are the same objects, in the same order.
      let j = 0;
      for (let i = 0; i < before.length && j < value.length; i++) if (value[j] === before[i]) j++;
      return j;
    },
  };
}

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
   */
  kept(key: string, path: string, value: readonly unknown[]): number;
}

/** A PATCH context with what `applyPatch` reported. */
export interface PatchFacts {
  readonly existing: ScimResource;
  readonly touched: ReadonlySet<string>;
  readonly changes?: readonly MultiValuedChange[];
}

/**
 * The baseline of one schema's members. `stored` are the stored members of that schema (the
 * resource, or the object under the extension URN); `urn` is the extension's, undefined for the core.
 */
export function memberBaseline(facts: PatchFacts, stored: Record<string, unknown> | undefined, urn: string | undefined): MemberBaseline | undefined {
  if (stored === undefined) return undefined;
  const touched = new Set([...facts.touched].map((key) => key.toLowerCase()));
  const changes = new Map((facts.changes ?? []).map((change) => [change.attribute.toLowerCase(), change]));
  // Core members are top-level keys, which `touched` names; extension members are compared one by one.
  const written = (key: string): boolean => urn === undefined && touched.has(key.toLowerCase());
  const storedValue = (key: string): unknown => (Object.prototype.hasOwnProperty.call(stored, key) ? stored[key] : undefined);
  return {
    unchanged(key, value) {
      if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
      return !written(key) && storedValue(key) === value;
    },
    kept(key, path, value) {
      const before = storedValue(key);
      if (!changes.has(path.toLowerCase()) || !Array.isArray(before)) return 0;
      // The stored elements the PATCH kept are the same objects, in the same order.
      let j = 0;
      for (let i = 0; i < before.length && j < value.length; i++) if (value[j] === before[i]) j++;
      return j;
    },
  };
}

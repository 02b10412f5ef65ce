import type { MultiValuedChange } from '../store/scim-store.js';

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

/**
 * The baselines of a PATCH result (`touched` and `changes` as `applyPatch` reported them): for one
 * schema's members, `stored` being the stored members of that schema (the resource, or the object
 * under the extension URN) and `urn` the extension's (undefined for the core).
 */
export function patchBaselines(
  touchedKeys: ReadonlySet<string>,
  changeList: readonly MultiValuedChange[] | undefined,
): (stored: Record<string, unknown> | undefined, urn: string | undefined) => MemberBaseline | undefined {
  // Folded on first use: most PATCH validations never ask.
  let touched: Set<string> | undefined;
  let changes: Map<string, MultiValuedChange> | undefined;
  const index: Indexes = {
    touched() {
      if (touched === undefined) {
        touched = new Set();
        for (const key of touchedKeys) touched.add(key.toLowerCase());
      }
      return touched;
    },
    changes() {
      if (changes === undefined) {
        changes = new Map();
        for (const change of changeList ?? []) changes.set(change.attribute.toLowerCase(), change);
      }
      return changes;
    },
  };
  return (stored, urn) => (stored === undefined ? undefined : memberBaseline(stored, urn === undefined, index));
}

/** The facts folded for case-insensitive lookups. */
interface Indexes {
  touched(): ReadonlySet<string>;
  changes(): ReadonlyMap<string, MultiValuedChange>;
}

/** `topLevel`: the members are top-level (the core's), so `touched` names them. */
function memberBaseline(stored: Record<string, unknown>, topLevel: boolean, index: Indexes): MemberBaseline {
  const storedValue = (key: string): unknown => (Object.prototype.hasOwnProperty.call(stored, key) ? stored[key] : undefined);
  return {
    unchanged(key, value) {
      if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
      // Extension members are compared one by one (their container is what `touched` names).
      return storedValue(key) === value && !(topLevel && index.touched().has(key.toLowerCase()));
    },
    kept(key, path, value) {
      const before = storedValue(key);
      if (!Array.isArray(before) || !index.changes().has(path.toLowerCase())) return 0;
      // The stored elements the PATCH kept are the same objects, in the same order.
      let j = 0;
      for (let i = 0; i < before.length && j < value.length; i++) if (value[j] === before[i]) j++;
      return j;
    },
  };
}

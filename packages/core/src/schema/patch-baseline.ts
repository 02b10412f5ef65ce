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
   * Taken from the PATCH's reported change when it adds up (see {@link PatchBaselines}).
   */
  kept(key: string, path: string, value: readonly unknown[]): number;
}

/**
 * The baselines of a PATCH result (`touched` and `changes` as `applyPatch` reported them), schema by
 * schema. Classes, not closures: one PATCH validation makes a few of these, and a closure per
 * method would be made on every request.
 *
 * `changes` is `applyPatch`'s own report for this result: an attribute listed is the stored array
 * without `removed` (the others kept in order) followed by `added`. Trusted when the counts add up
 * and the array ends with `added`: the kept stored elements are then not compared one by one.
 */
export class PatchBaselines {
  /** `touched` and the changed attributes folded for case-insensitive lookups, on first use. */
  #touched: Set<string> | undefined;
  #changes: Map<string, MultiValuedChange> | undefined;

  constructor(
    private readonly touchedKeys: ReadonlySet<string>,
    private readonly changeList: readonly MultiValuedChange[] | undefined,
  ) {}

  /**
   * The baseline of one schema's members: `stored` the stored members of that schema (the resource,
   * or the object under the extension URN), `urn` the extension's (undefined for the core).
   */
  of(stored: Record<string, unknown> | undefined, urn: string | undefined): MemberBaseline | undefined {
    return stored === undefined ? undefined : new StoredMembers(stored, urn === undefined, this);
  }

  /** Whether the PATCH wrote the top-level key `key` (ignoring case). */
  wrote(key: string): boolean {
    if (this.touchedKeys.has(key)) return true;
    if (this.#touched === undefined) {
      this.#touched = new Set();
      for (const name of this.touchedKeys) this.#touched.add(name.toLowerCase());
    }
    return this.#touched.has(key.toLowerCase());
  }

  /** The reported change of the attribute at `path` (ignoring case), when its elements were only added or removed. */
  elementChange(path: string): MultiValuedChange | undefined {
    if (this.changeList === undefined || this.changeList.length === 0) return undefined;
    if (this.#changes === undefined) {
      this.#changes = new Map();
      for (const change of this.changeList) this.#changes.set(change.attribute.toLowerCase(), change);
    }
    return this.#changes.get(path.toLowerCase());
  }
}

/** One schema's stored members. `topLevel`: they are the core's, so `touched` names them. */
class StoredMembers implements MemberBaseline {
  constructor(
    private readonly stored: Record<string, unknown>,
    private readonly topLevel: boolean,
    private readonly baselines: PatchBaselines,
  ) {}

  unchanged(key: string, value: unknown): boolean {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
    // Extension members are compared one by one (their container is what `touched` names).
    return this.storedValue(key) === value && !(this.topLevel && this.baselines.wrote(key));
  }

  kept(key: string, path: string, value: readonly unknown[]): number {
    const before = this.storedValue(key);
    if (!Array.isArray(before)) return 0;
    const change = this.baselines.elementChange(path);
    if (change === undefined) return 0;
    // As `applyPatch` reports it: the stored elements without the removed ones, in order, then
    // the added ones. When the counts add up and the array ends with the added elements, that
    // is the array, and the stored ones are not compared (a 100,000-member group is not walked).
    const { added, removed } = change;
    const kept = value.length - added.length;
    if (kept >= 0 && kept === before.length - removed.length && endsWith(value, kept, added)) return kept;
    // Otherwise: the stored elements the PATCH kept are the same objects, in the same order.
    let j = 0;
    for (let i = 0; i < before.length && j < value.length; i++) if (value[j] === before[i]) j++;
    return j;
  }

  private storedValue(key: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.stored, key) ? this.stored[key] : undefined;
  }
}

/** Whether `value` holds the very elements of `tail` from index `from` on. */
function endsWith(value: readonly unknown[], from: number, tail: readonly unknown[]): boolean {
  for (let i = 0; i < tail.length; i++) if (value[from + i] !== tail[i]) return false;
  return true;
}
